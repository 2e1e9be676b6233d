// What a loaded program exposes besides kernels: globals, exported functions, dynamic linking.
#include <gtest/gtest.h>

#include "kernel_runner.h"

namespace loom::compiler::test {
namespace {

std::unique_ptr<CpuExecutable> loadFresh(const std::string& kernels) { return loadBuilt(compileKernels(kernels)); }

void runSingle(CpuExecutable& executable, const std::string& name, int* out, uint64_t items = 1) {
  std::string log;
  WorkGroupFunction function = executable.kernel(name, log);
  ASSERT_NE(function, nullptr) << log;
  Range range;
  range.globalSize[0] = items;
  range.localSize[0] = uint32_t(items);
  Arguments(*executable.program().info.findKernel(name)).set(0, out).run(function, range);
}

TEST(ProgramSymbols, GlobalVariablesKeepTheirInitializersAndAreShared) {
  auto program = loadFresh("program_scope");
  ASSERT_NE(program, nullptr);
  auto* counter = static_cast<int*>(program->globalVariable("counter_global"));
  ASSERT_NE(counter, nullptr);
  EXPECT_EQ(*counter, 41);
  auto* table = static_cast<float*>(program->globalVariable("table_global"));
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table[3], 4.5f);
  int out = 0;
  runSingle(*program, "increment_global", &out);
  EXPECT_EQ(out, 42);
  *counter = 100;
  runSingle(*program, "increment_global", &out);
  EXPECT_EQ(out, 101);
  EXPECT_EQ(program->globalVariable("no_such_global"), nullptr);
}

TEST(ProgramSymbols, EachLoadHasItsOwnGlobals) {
  auto first = loadFresh("program_scope"), second = loadFresh("program_scope");
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_NE(first->globalVariable("counter_global"), second->globalVariable("counter_global"));
}

TEST(ProgramSymbols, ExportedFunctionsAreCallable) {
  auto program = loadFresh("program_scope");
  ASSERT_NE(program, nullptr);
  auto* helper = reinterpret_cast<int (*)(int)>(program->function("exported_helper"));
  ASSERT_NE(helper, nullptr);
  EXPECT_EQ(helper(5), 15);
  int out = 0;
  runSingle(*program, "call_helper", &out);
  EXPECT_EQ(out, 44);
  EXPECT_EQ(program->function("no_such_function"), nullptr);
}

// OpenCL executables export nothing: their kernels' helpers leave no code of their own.
TEST(ProgramSymbols, WithoutExportsHelpersAreNotExportedAndKernelsStillRun) {
  CompileRequest request;
  request.spirv = readSpirv("program_scope");
  request.exportFunctions = false;
  const BuildResult built = compileSpirv(request);
  ASSERT_EQ(built.status, Status::Success) << built.log;
  EXPECT_TRUE(built.program->info.exportedFunctions.empty());
  EXPECT_EQ(built.program->info.globals.size(), 2u) << "variables are still the program's";
  auto program = loadBuilt(built);
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(program->function("exported_helper"), nullptr);
  int out = 0;
  runSingle(*program, "call_helper", &out);
  EXPECT_EQ(out, 14 * 3 + 2);
}

TEST(ProgramSymbols, KernelsCallExportedFunctionsThroughTheirAddresses) {
  auto program = loadFresh("function_pointer_kernels");
  ASSERT_NE(program, nullptr);
  void* square = program->function("square");
  ASSERT_NE(square, nullptr);
  std::string log;
  WorkGroupFunction function = program->kernel("call_through_argument", log);
  ASSERT_NE(function, nullptr) << log;
  int data = 9;
  Arguments(*program->program().info.findKernel("call_through_argument"))
      .set(0, reinterpret_cast<int64_t>(square))
      .set(1, &data)
      .run(function, Range{});
  EXPECT_EQ(data, 81);
}

TEST(ProgramSymbols, AFunctionCalledThroughAPointerCannotAskForItsWorkItem) {
  const BuildResult built = compileKernels("indirect_work_items");
  EXPECT_EQ(built.status, Status::BuildFailure);
  EXPECT_NE(built.log.find("'plus_id' is called through a pointer"), std::string::npos) << built.log;
}

TEST(ProgramSymbols, ImportsResolveAgainstLinkedPrograms) {
  auto importer = loadFresh("importer"), exporter = loadFresh("exporter");
  ASSERT_NE(importer, nullptr);
  ASSERT_NE(exporter, nullptr);
  std::string log;
  ASSERT_TRUE(importer->link({exporter.get()}, log)) << log;
  std::vector<int> out(8, 0);
  runSingle(*importer, "call_import", out.data(), out.size());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], i * i + 1) << i;
}

TEST(ProgramSymbols, UnresolvedImportsFailWithTheirNames) {
  auto importer = loadFresh("importer"), unrelated = loadFresh("program_scope");
  ASSERT_NE(importer, nullptr);
  ASSERT_NE(unrelated, nullptr);
  std::string log;
  EXPECT_FALSE(importer->link({unrelated.get()}, log));
  EXPECT_NE(log.find("linked_helper"), std::string::npos) << log;
  log.clear();
  EXPECT_EQ(importer->kernel("call_import", log), nullptr);
  EXPECT_NE(log.find("linked_helper"), std::string::npos) << log;
}

}  // namespace
}  // namespace loom::compiler::test
