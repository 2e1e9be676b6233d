#pragma once
// How the loaders an application links find Loom, as loom-info tells it: Debian's Level Zero
// loader (libze1 1.x) loads only Intel's drivers unless ZE_ENABLE_ALT_DRIVERS lists the drivers
// to load; the OpenCL ICD loader (ocl-icd) reads the .icd files of OCL_ICD_VENDORS or
// /etc/OpenCL/vendors. Each function returns one line.
#include <string>

namespace loom::tools {

// The ZE_ENABLE_ALT_DRIVERS entry that names libze_loom, or why the loader does not find Loom.
std::string levelZeroDiscovery();

// The .icd file that names libloom_opencl, or why the ICD loader does not find Loom.
std::string openClDiscovery();

}  // namespace loom::tools
