// Which programs' PTX a program with imports is linked with (zeModuleDynamicLink on CUDA).
#include <gtest/gtest.h>

#include "backends/cuda/cuda_linker.h"

namespace loom::backends::cuda {
namespace {

compiler::CompiledProgram program(std::vector<std::string> exports, std::vector<std::string> imports = {}) {
  compiler::CompiledProgram made;
  made.target = compiler::Target::Nvptx;
  made.info.exportedFunctions = std::move(exports);
  made.info.importedFunctions = std::move(imports);
  return made;
}

using Inputs = std::vector<const compiler::CompiledProgram*>;

TEST(CudaLinker, TakesTheImporterAndTheExportersItNeeds) {
  const auto importer = program({}, {"f", "g"});
  const auto unrelated = program({"h"}), exportsF = program({"f"}), exportsG = program({"g", "k"});
  std::string log;
  // In the order of the imports they resolve.
  EXPECT_EQ(linkInputs(importer, {&unrelated, &exportsG, &exportsF}, log), (Inputs{&importer, &exportsF, &exportsG}));
  EXPECT_EQ(log, "");
}

TEST(CudaLinker, ResolvesTheImportsOfExportersToo) {
  const auto importer = program({}, {"f"});
  const auto middle = program({"f"}, {"g"}), last = program({"g"});
  std::string log;
  EXPECT_EQ(linkInputs(importer, {&last, &middle}, log), (Inputs{&importer, &middle, &last}));
}

TEST(CudaLinker, TakesEachProgramOnceWhenTheyImportFromEachOther) {
  const auto importer = program({"g"}, {"f"});
  const auto other = program({"f", "h"}, {"g"});
  std::string log;
  EXPECT_EQ(linkInputs(importer, {&other}, log), (Inputs{&importer, &other}));
}

TEST(CudaLinker, AProgramWithoutImportsStandsAlone) {
  const auto alone = program({"f"}), other = program({"g"});
  std::string log;
  EXPECT_EQ(linkInputs(alone, {&other}, log), (Inputs{&alone}));
}

TEST(CudaLinker, NamesEveryUnresolvedImport) {
  const auto importer = program({}, {"f", "g"});
  const auto middle = program({"f"}, {"missing"});
  std::string log;
  EXPECT_TRUE(linkInputs(importer, {&middle}, log).empty());
  EXPECT_EQ(log, "unresolved import: g\nunresolved import: missing\n");
}

TEST(CudaLinker, PtxEndsAtItsNul) {
  const std::string text = ".version 7.5";
  std::vector<uint8_t> code(text.begin(), text.end());
  EXPECT_EQ(ptxText(code), text);
  code.push_back('\0');
  code.push_back('x');
  EXPECT_EQ(ptxText(code), text);
}

}  // namespace
}  // namespace loom::backends::cuda
