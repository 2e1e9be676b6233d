#include "loader_discovery.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace loom::tools {

namespace {

namespace fs = std::filesystem;

constexpr const char* kLevelZeroLibrary = "libze_loom.so";
constexpr const char* kOpenClLibrary = "libloom_opencl.so";
constexpr const char* kEnvironmentFile = "profile.d/loom-level-zero.sh";

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, separator);)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

bool namesLibrary(const std::string& path, const char* library) {
  return fs::path(path).filename().string().starts_with(library);
}

// A library the loader dlopens: by path when it holds a slash, else by the library search path.
std::string describeLibrary(const std::string& library) {
  if (library.find('/') == std::string::npos) return library + " (by the library search path)";
  if (!fs::exists(library)) return library + ", which does not exist";
  return library;
}

// The environment file installed next to this loom-info: <prefix>/etc/profile.d/..., or
// /etc/profile.d/... for a /usr install (the package). Empty when there is none.
std::string installedEnvironmentFile() {
  std::error_code error;
  const fs::path prefix = fs::read_symlink("/proc/self/exe", error).parent_path().parent_path();
  if (error) return {};
  const fs::path file = (prefix == "/usr" ? fs::path("/etc") : prefix / "etc") / kEnvironmentFile;
  return fs::exists(file) ? file.string() : std::string();
}

std::string firstLine(const fs::path& file) {
  std::ifstream stream(file);
  std::string line;
  std::getline(stream, line);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
  return line;
}

// The first .icd file of `folder` that names Loom's OpenCL library, as "<file> -> <library>".
std::string loomIcdIn(const fs::path& folder) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    if (entry.path().extension() != ".icd") continue;
    const std::string library = firstLine(entry.path());
    if (namesLibrary(library, kOpenClLibrary)) return entry.path().string() + " -> " + describeLibrary(library);
  }
  return {};
}

}  // namespace

std::string levelZeroDiscovery() {
  const std::string drivers = environment("ZE_ENABLE_ALT_DRIVERS");
  if (drivers.empty()) {
    const std::string file = installedEnvironmentFile();
    return "not found: ZE_ENABLE_ALT_DRIVERS is unset, and the loader then loads only Intel's drivers; " +
           (file.empty() ? std::string("set it to the path of libze_loom.so.1")
                         : "log in again or source " + file + ", which sets it");
  }
  for (const std::string& driver : split(drivers, ','))
    if (namesLibrary(driver, kLevelZeroLibrary)) return "ZE_ENABLE_ALT_DRIVERS names " + describeLibrary(driver);
  return "not found: ZE_ENABLE_ALT_DRIVERS=" + drivers + " names no libze_loom.so.1";
}

std::string openClDiscovery() {
  const std::string vendors = environment("OCL_ICD_VENDORS");
  std::string folder = environment("OPENCL_VENDOR_PATH");
  if (folder.empty()) folder = "/etc/OpenCL/vendors";
  if (!vendors.empty() && fs::is_directory(vendors)) folder = vendors;
  if (!vendors.empty() && folder != vendors) {
    // ocl-icd's rules: one .icd file (a bare name is looked for in the vendors folder first), else
    // the library itself.
    std::string library = vendors;
    if (vendors.ends_with(".icd"))
      library = firstLine(vendors.find('/') == std::string::npos && fs::exists(folder + "/" + vendors)
                              ? folder + "/" + vendors
                              : vendors);
    if (namesLibrary(library, kOpenClLibrary)) return "OCL_ICD_VENDORS=" + vendors + " -> " + describeLibrary(library);
    return "not found: OCL_ICD_VENDORS=" + vendors + " names another driver";
  }
  const std::string icd = loomIcdIn(folder);
  if (!icd.empty()) return icd;
  return "not found: no .icd file in " + folder + " names libloom_opencl.so.1";
}

}  // namespace loom::tools
