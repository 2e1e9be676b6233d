// ZE_extension_linkage_inspection: the log of zeModuleInspectLinkageExt lists the imports, the
// imports no module of the set exports, and the exports of a set of modules. import_kernels.cl
// imports exported_helper, which api_kernels.cl exports, and exports helper_plus_one.
#include <algorithm>
#include <cstring>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

constexpr ze_linkage_inspection_ext_flags_t kAllLists =
    ZE_LINKAGE_INSPECTION_EXT_FLAG_IMPORTS | ZE_LINKAGE_INSPECTION_EXT_FLAG_UNRESOLVABLE_IMPORTS | ZE_LINKAGE_INSPECTION_EXT_FLAG_EXPORTS;

class LinkageInspectionTest : public ZeTest {
 protected:
  // The log of inspecting `modules` for `flags`; the call must succeed.
  std::string inspect(std::vector<ze_module_handle_t> modules, ze_linkage_inspection_ext_flags_t flags) {
    ze_linkage_inspection_ext_desc_t desc{ZE_STRUCTURE_TYPE_LINKAGE_INSPECTION_EXT_DESC, nullptr, flags};
    ze_module_build_log_handle_t log = nullptr;
    EXPECT_ZE(zeModuleInspectLinkageExt(&desc, uint32_t(modules.size()), modules.data(), &log));
    EXPECT_NE(log, nullptr);
    return takeBuildLog(log);
  }
};

TEST_F(LinkageInspectionTest, TheDriverListsTheExtension) {
  EXPECT_EQ(listedExtensionVersion(ZE_LINKAGE_INSPECTION_EXT_NAME), uint32_t(ZE_LINKAGE_INSPECTION_EXT_VERSION_1_0));
}

TEST_F(LinkageInspectionTest, AnExporterResolvesTheImportOfTheImporter) {
  const std::string log = inspect({module("import_kernels.spv"), module("api_kernels.spv")}, kAllLists);
  EXPECT_EQ(log,
            "imports:\n"
            "  module 0: exported_helper\n"
            "unresolvable imports:\n"
            "  (none)\n"
            "exports:\n"
            "  module 0: helper_plus_one\n"
            "  module 1: exported_helper\n");
}

TEST_F(LinkageInspectionTest, AnImportNoModuleOfTheSetExportsIsUnresolvable) {
  const std::string log = inspect({module("import_kernels.spv")}, kAllLists);
  EXPECT_EQ(log,
            "imports:\n"
            "  module 0: exported_helper\n"
            "unresolvable imports:\n"
            "  module 0: exported_helper\n"
            "exports:\n"
            "  module 0: helper_plus_one\n");
}

TEST_F(LinkageInspectionTest, TheLogHoldsOnlyTheListsAsked) {
  ze_module_handle_t importer = module("import_kernels.spv");
  EXPECT_EQ(inspect({importer}, ZE_LINKAGE_INSPECTION_EXT_FLAG_IMPORTS), "imports:\n  module 0: exported_helper\n");
  EXPECT_EQ(inspect({importer}, ZE_LINKAGE_INSPECTION_EXT_FLAG_UNRESOLVABLE_IMPORTS),
            "unresolvable imports:\n  module 0: exported_helper\n");
  EXPECT_EQ(inspect({importer}, ZE_LINKAGE_INSPECTION_EXT_FLAG_EXPORTS), "exports:\n  module 0: helper_plus_one\n");
}

// Flags 0 (the descriptor's default) ask for no list: the call succeeds with an empty log, as
// level-zero-tests' tracing test expects.
TEST_F(LinkageInspectionTest, NoFlagsGiveAnEmptyLog) {
  EXPECT_EQ(inspect({module("import_kernels.spv"), module("api_kernels.spv")}, 0), "");
}

TEST_F(LinkageInspectionTest, NoModulesGiveEmptyLists) {
  ze_linkage_inspection_ext_desc_t desc{ZE_STRUCTURE_TYPE_LINKAGE_INSPECTION_EXT_DESC, nullptr, kAllLists};
  ze_module_handle_t none[1] = {nullptr};  // not read: the array must only be there
  ze_module_build_log_handle_t log = nullptr;
  ASSERT_ZE(zeModuleInspectLinkageExt(&desc, 0, none, &log));
  EXPECT_EQ(takeBuildLog(log), "imports:\n  (none)\nunresolvable imports:\n  (none)\nexports:\n  (none)\n");
}

// Linking resolves the import; the module still imports the function.
TEST_F(LinkageInspectionTest, ALinkedModuleStillListsItsImport) {
  ze_module_handle_t both[2] = {module("import_kernels.spv"), module("api_kernels.spv")};
  ASSERT_ZE(zeModuleDynamicLink(2, both, nullptr));
  EXPECT_EQ(inspect({both[0]}, ZE_LINKAGE_INSPECTION_EXT_FLAG_IMPORTS), "imports:\n  module 0: exported_helper\n");
}

TEST_F(LinkageInspectionTest, BadArgumentsAreRefusedWithoutALog) {
  ze_module_handle_t importer = module("import_kernels.spv");
  ze_linkage_inspection_ext_desc_t desc{ZE_STRUCTURE_TYPE_LINKAGE_INSPECTION_EXT_DESC, nullptr, kAllLists};
  ze_module_build_log_handle_t log = nullptr;
  EXPECT_EQ(zeModuleInspectLinkageExt(nullptr, 1, &importer, &log), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  EXPECT_EQ(zeModuleInspectLinkageExt(&desc, 1, nullptr, &log), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  EXPECT_EQ(zeModuleInspectLinkageExt(&desc, 0, nullptr, &log), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  EXPECT_EQ(zeModuleInspectLinkageExt(&desc, 1, &importer, nullptr), ZE_RESULT_ERROR_INVALID_NULL_POINTER);

  ze_module_handle_t withNull[2] = {importer, nullptr};
  EXPECT_EQ(zeModuleInspectLinkageExt(&desc, 2, withNull, &log), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  ze_module_handle_t notAModule = reinterpret_cast<ze_module_handle_t>(context);
  EXPECT_EQ(zeModuleInspectLinkageExt(&desc, 1, &notAModule, &log), ZE_RESULT_ERROR_INVALID_ARGUMENT);

  ze_linkage_inspection_ext_desc_t badFlags{ZE_STRUCTURE_TYPE_LINKAGE_INSPECTION_EXT_DESC, nullptr, kAllLists | 0x8};
  EXPECT_EQ(zeModuleInspectLinkageExt(&badFlags, 1, &importer, &log), ZE_RESULT_ERROR_INVALID_ENUMERATION);
  ze_linkage_inspection_ext_desc_t wrongType{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, kAllLists};
  EXPECT_EQ(zeModuleInspectLinkageExt(&wrongType, 1, &importer, &log), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(log, nullptr) << "a refused call creates no log";
}

}  // namespace
}  // namespace loom::test
