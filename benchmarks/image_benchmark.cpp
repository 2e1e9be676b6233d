// image_benchmark: images on Loom next to a peer OpenCL platform in the same run, through the ICD
// loader (issue "Images and samplers"): PoCL on the CPU, NVIDIA's OpenCL on a GPU. Measures a 5x5
// blur that samples with a linear filter, clEnqueueCopyImage and a kernel that copies texel by
// texel, on RGBA 8-bit normalized and RGBA float images. Prints the time per operation on both (the
// median of alternating rounds), the peer's time over Loom's (above 1: Loom is faster) and whether
// each platform's result matched the host's reference. Nothing here asserts on time.
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "embedded_files.h"

namespace {

struct Options {
  bool gpu = false;
  int size = 2048;
  int rounds = 5;
  int repetitions = 3;
  std::string only;  // measures only the cases whose name holds this text
};

bool ok(cl_int status, const std::string& who, const char* what) {
  if (status == CL_SUCCESS) return true;
  std::fprintf(stderr, "%s: %s failed: %d\n", who.c_str(), what, status);
  return false;
}

struct Platform {
  std::string label;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
};

cl_device_id findDevice(const char* platformName, cl_device_type type) {
  cl_uint count = 0;
  clGetPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> ids(count);
  if (count) clGetPlatformIDs(count, ids.data(), nullptr);
  for (cl_platform_id id : ids) {
    char name[256] = {};
    clGetPlatformInfo(id, CL_PLATFORM_NAME, sizeof(name), name, nullptr);
    cl_device_id device = nullptr;
    if (std::strcmp(name, platformName) == 0 && clGetDeviceIDs(id, type, 1, &device, nullptr) == CL_SUCCESS) return device;
  }
  return nullptr;
}

// Loom, then the peer, each where its platform has a device of the kind asked for.
std::vector<Platform> openPlatforms(const Options& options) {
  const cl_device_type type = options.gpu ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_CPU;
  const std::pair<const char*, const char*> wanted[] = {
      {"Loom", "Loom"}, {options.gpu ? "NVIDIA CUDA" : "Portable Computing Language", options.gpu ? "NVIDIA" : "PoCL"}};
  const std::string source = loom::test::embeddedText("image_kernels.cl");
  std::vector<Platform> platforms;
  for (const auto& [platformName, label] : wanted) {
    cl_device_id device = findDevice(platformName, type);
    if (!device) {
      std::fprintf(stderr, "%s: no platform '%s' with a device of that type (OCL_ICD_VENDORS?)\n", label, platformName);
      continue;
    }
    char name[256] = {};
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(name), name, nullptr);
    std::printf("%s: %s\n", label, name);
    Platform p{label};
    cl_int error = CL_SUCCESS;
    p.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
    if (!ok(error, label, "clCreateContext")) continue;
    p.queue = clCreateCommandQueueWithProperties(p.context, device, nullptr, &error);
    if (!ok(error, label, "clCreateCommandQueueWithProperties")) continue;
    const char* text = source.c_str();
    p.program = clCreateProgramWithSource(p.context, 1, &text, nullptr, &error);
    if (!ok(error, label, "clCreateProgramWithSource")) continue;
    if (!ok(clBuildProgram(p.program, 1, &device, "-cl-std=CL1.2", nullptr, nullptr), label, "clBuildProgram")) continue;
    platforms.push_back(p);
  }
  return platforms;
}

void closePlatform(Platform& p) {
  if (p.program) clReleaseProgram(p.program);
  if (p.queue) clReleaseCommandQueue(p.queue);
  if (p.context) clReleaseContext(p.context);
}

// ---- Images on the host -------------------------------------------------------------------------

enum class Format { Unorm8, Float };

struct HostImage {
  Format format;
  int width, height;
  std::vector<float> texels;  // RGBA per texel, as read_imagef returns them

  size_t texelBytes() const { return format == Format::Unorm8 ? 4 : 16; }
  size_t bytes() const { return texelBytes() * width * height; }
  float at(int x, int y, int channel) const { return texels[(size_t(y) * width + x) * 4 + channel]; }
};

// Values a write_imagef of `value` stores: rounded to the nearest 1/255 and saturated for 8 bits.
float storedValue(Format format, float value) {
  if (format == Format::Float) return value;
  return std::nearbyint(std::clamp(value, 0.0f, 1.0f) * 255.0f) / 255.0f;
}

HostImage randomImage(Format format, int width, int height) {
  HostImage image{format, width, height, std::vector<float>(size_t(width) * height * 4)};
  std::mt19937 generator(7);
  std::uniform_real_distribution<float> distribution(0.0f, 1.0f);
  for (float& value : image.texels) value = storedValue(format, distribution(generator));
  return image;
}

std::vector<uint8_t> encode(const HostImage& image) {
  std::vector<uint8_t> bytes(image.bytes());
  if (image.format == Format::Float) {
    std::memcpy(bytes.data(), image.texels.data(), bytes.size());
    return bytes;
  }
  for (size_t i = 0; i < image.texels.size(); ++i) bytes[i] = uint8_t(std::lround(image.texels[i] * 255.0f));
  return bytes;
}

HostImage decode(Format format, int width, int height, const std::vector<uint8_t>& bytes) {
  HostImage image{format, width, height, std::vector<float>(size_t(width) * height * 4)};
  if (format == Format::Float) {
    std::memcpy(image.texels.data(), bytes.data(), bytes.size());
    return image;
  }
  for (size_t i = 0; i < image.texels.size(); ++i) image.texels[i] = bytes[i] / 255.0f;
  return image;
}

// The blur of image_kernels.cl in double precision: each tap at (x + d + 0.25, y + e + 0.25) in
// texel space blends texels (x + d, y + e) to (x + d + 1, y + e + 1) with weights 3/4 and 1/4,
// their indices clamped to the edge.
HostImage referenceBlur(const HostImage& in) {
  static const double binomial[5] = {0.0625, 0.25, 0.375, 0.25, 0.0625};
  HostImage out{in.format, in.width, in.height, std::vector<float>(in.texels.size())};
  const auto clampX = [&](int x) { return std::clamp(x, 0, in.width - 1); };
  const auto clampY = [&](int y) { return std::clamp(y, 0, in.height - 1); };
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x)
      for (int c = 0; c < 4; ++c) {
        double sum = 0;
        for (int dy = -2; dy <= 2; ++dy)
          for (int dx = -2; dx <= 2; ++dx) {
            const int x0 = clampX(x + dx), x1 = clampX(x + dx + 1), y0 = clampY(y + dy), y1 = clampY(y + dy + 1);
            const double tap = 0.5625 * in.at(x0, y0, c) + 0.1875 * (in.at(x1, y0, c) + in.at(x0, y1, c)) +
                               0.0625 * in.at(x1, y1, c);
            sum += binomial[dx + 2] * binomial[dy + 2] * tap;
          }
        out.texels[(size_t(y) * in.width + x) * 4 + c] = storedValue(in.format, float(sum));
      }
  return out;
}

// The largest difference between two images' channels, in units of the format's step for 8 bits.
double largestDifference(const HostImage& a, const HostImage& b) {
  double largest = 0;
  const double unit = a.format == Format::Unorm8 ? 1.0 / 255.0 : 1.0;
  for (size_t i = 0; i < a.texels.size(); ++i) largest = std::max(largest, std::fabs(double(a.texels[i]) - b.texels[i]) / unit);
  return largest;
}

// ---- One measurement on one platform ------------------------------------------------------------

enum class Operation { Blur, CopyCommand, CopyKernel };

struct Case {
  const char* name;
  Operation operation;
  Format format;
  double tolerance;  // the largest difference from the reference accepted (see largestDifference)
};

// The input and output images of a case on one platform, with its kernel.
class Setup {
 public:
  Setup(Platform& p, const Case& c, const HostImage& input) : p_(p), c_(c), width_(input.width), height_(input.height) {
    const cl_image_format format{CL_RGBA, c.format == Format::Unorm8 ? cl_channel_type(CL_UNORM_INT8) : cl_channel_type(CL_FLOAT)};
    cl_image_desc description{};
    description.image_type = CL_MEM_OBJECT_IMAGE2D;
    description.image_width = size_t(width_), description.image_height = size_t(height_);
    std::vector<uint8_t> bytes = encode(input);
    cl_int error = CL_SUCCESS;
    input_ = clCreateImage(p.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &description, bytes.data(), &error);
    if (!ok(error, p.label, "clCreateImage (input)")) return;
    output_ = clCreateImage(p.context, CL_MEM_WRITE_ONLY, &format, &description, nullptr, &error);
    if (!ok(error, p.label, "clCreateImage (output)") || c.operation == Operation::CopyCommand) return;
    kernel_ = clCreateKernel(p.program, c.operation == Operation::Blur ? "blur5x5" : "copyTexels", &error);
    if (!ok(error, p.label, "clCreateKernel")) return;
    ok(clSetKernelArg(kernel_, 0, sizeof(cl_mem), &input_), p.label, "clSetKernelArg");
    ok(clSetKernelArg(kernel_, 1, sizeof(cl_mem), &output_), p.label, "clSetKernelArg");
  }
  ~Setup() {
    if (kernel_) clReleaseKernel(kernel_);
    for (cl_mem image : {input_, output_})
      if (image) clReleaseMemObject(image);
  }
  bool ready() const { return output_ && (kernel_ || c_.operation == Operation::CopyCommand); }

  // Seconds per operation over `repetitions` of them, after one to warm up; negative on failure.
  double time(int repetitions) {
    if (!enqueue() || !ok(clFinish(p_.queue), p_.label, "clFinish")) return -1;
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < repetitions; ++r)
      if (!enqueue()) return -1;
    if (!ok(clFinish(p_.queue), p_.label, "clFinish")) return -1;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / repetitions;
  }

  HostImage output() const {
    std::vector<uint8_t> bytes((c_.format == Format::Unorm8 ? 4 : 16) * size_t(width_) * height_);
    const size_t origin[3] = {0, 0, 0}, region[3] = {size_t(width_), size_t(height_), 1};
    ok(clEnqueueReadImage(p_.queue, output_, CL_TRUE, origin, region, 0, 0, bytes.data(), 0, nullptr, nullptr), p_.label,
       "clEnqueueReadImage");
    return decode(c_.format, width_, height_, bytes);
  }

 private:
  bool enqueue() {
    const size_t origin[3] = {0, 0, 0}, region[3] = {size_t(width_), size_t(height_), 1};
    if (c_.operation == Operation::CopyCommand)
      return ok(clEnqueueCopyImage(p_.queue, input_, output_, origin, origin, region, 0, nullptr, nullptr), p_.label,
                "clEnqueueCopyImage");
    const size_t local[2] = {16, 16};
    return ok(clEnqueueNDRangeKernel(p_.queue, kernel_, 2, nullptr, region, local, 0, nullptr, nullptr), p_.label,
              "clEnqueueNDRangeKernel");
  }

  Platform& p_;
  const Case& c_;
  int width_, height_;
  cl_mem input_ = nullptr, output_ = nullptr;
  cl_kernel kernel_ = nullptr;
};

struct Outcome {
  double seconds = -1;  // the median over the rounds; negative when not measured
  double difference = -1;
  bool correct = false;
};

// The platforms take turns, round after round, and each one's median time counts: memory
// bandwidth drifts from minute to minute, so a single round would say more about the order in
// which the platforms ran than about the runtimes.
std::vector<Outcome> measure(const Case& c, std::vector<Platform>& platforms, const Options& options) {
  const HostImage input = randomImage(c.format, options.size, options.size);
  const HostImage expected = c.operation == Operation::Blur ? referenceBlur(input) : input;
  std::vector<Outcome> outcomes(platforms.size());
  std::vector<std::vector<double>> times(platforms.size());
  std::vector<std::unique_ptr<Setup>> setups;
  for (Platform& p : platforms) setups.push_back(std::make_unique<Setup>(p, c, input));
  for (int round = 0; round < options.rounds; ++round)
    for (size_t i = 0; i < platforms.size(); ++i)
      if (setups[i]->ready()) times[i].push_back(setups[i]->time(options.repetitions));
  for (size_t i = 0; i < platforms.size(); ++i) {
    std::vector<double>& t = times[i];
    std::sort(t.begin(), t.end());
    if (!t.empty() && t.front() > 0) outcomes[i].seconds = t[t.size() / 2];
    if (setups[i]->ready()) {
      outcomes[i].difference = largestDifference(setups[i]->output(), expected);
      outcomes[i].correct = outcomes[i].difference <= c.tolerance;
    }
    setups[i].reset();  // frees the images before the next platform's turn
  }
  return outcomes;
}

bool parse(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    const auto value = [&](int& field) {
      if (i + 1 >= argc || std::atoi(argv[i + 1]) <= 0) return false;
      field = std::atoi(argv[++i]);
      return true;
    };
    if (argument == "--device" && i + 1 < argc && (std::strcmp(argv[i + 1], "cpu") == 0 || std::strcmp(argv[i + 1], "gpu") == 0))
      options.gpu = std::strcmp(argv[++i], "gpu") == 0;
    else if (argument == "--only" && i + 1 < argc)
      options.only = argv[++i];
    else if (!((argument == "--size" && value(options.size)) || (argument == "--rounds" && value(options.rounds)) ||
               (argument == "--repetitions" && value(options.repetitions))))
      return false;
  }
  return true;
}

void usage() {
  std::printf(
      "usage: image_benchmark [--device cpu|gpu] [--size N] [--rounds N] [--repetitions N] [--only TEXT]\n"
      "Runs image kernels and copies on Loom and on a peer OpenCL platform in one run, through the\n"
      "ICD loader: PoCL's CPU device with --device cpu (the default), NVIDIA's OpenCL with --device\n"
      "gpu. Cases: a 5x5 blur whose taps sample with CLK_FILTER_LINEAR, clEnqueueCopyImage and a\n"
      "read_imagef/write_imagef copy kernel, on N x N (default 2048) RGBA UNORM_INT8 and RGBA FLOAT\n"
      "images. Each platform runs each case --repetitions times (default 3) per round, the\n"
      "platforms alternate for --rounds rounds (default 5), and the median round counts. Every\n"
      "result is checked against the host's reference (blur: within 2 steps of 8 bits, 1e-3 for\n"
      "float; copies: exact). --only TEXT measures only the cases whose name holds TEXT.\n"
      "Environment: OCL_ICD_VENDORS=<folder with loom.icd and the peer's .icd> (build/icd-peers on\n"
      "the CPU). Exit status: 0 when everything was measured and\n"
      "correct, 1 when a result was wrong, 2 on bad arguments, 3 when a platform was missing.\n");
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    usage();
    return 0;
  }
  if (!parse(argc, argv, options)) {
    usage();
    return 2;
  }
  std::vector<Platform> platforms = openPlatforms(options);
  if (platforms.empty()) return 3;
  const Case cases[] = {
      {"blur 5x5 linear, RGBA8", Operation::Blur, Format::Unorm8, 2.0},
      {"blur 5x5 linear, RGBA float", Operation::Blur, Format::Float, 1e-3},
      {"clEnqueueCopyImage, RGBA8", Operation::CopyCommand, Format::Unorm8, 0},
      {"clEnqueueCopyImage, RGBA float", Operation::CopyCommand, Format::Float, 0},
      {"copy kernel, RGBA8", Operation::CopyKernel, Format::Unorm8, 0},
      {"copy kernel, RGBA float", Operation::CopyKernel, Format::Float, 0},
  };
  std::printf("%d x %d images, %d rounds of %d\n%-32s", options.size, options.size, options.rounds, options.repetitions,
              "case (time per operation)");
  for (const Platform& p : platforms) std::printf("%14s", p.label.c_str());
  std::printf("%14s  %s\n", platforms.size() == 2 ? (platforms[1].label + "/Loom").c_str() : "", "results");
  bool correct = true, complete = platforms.size() == 2;
  for (const Case& c : cases) {
    if (std::string(c.name).find(options.only) == std::string::npos) continue;
    std::printf("%-32s", c.name);
    std::fflush(stdout);
    const std::vector<Outcome> outcomes = measure(c, platforms, options);
    for (const Outcome& o : outcomes) {
      if (o.seconds < 0) std::printf("%14s", "n/a");
      else std::printf("%11.3f ms", o.seconds * 1e3);
      complete = complete && o.seconds >= 0;
      correct = correct && o.correct;
    }
    if (outcomes.size() == 2 && outcomes[0].seconds > 0 && outcomes[1].seconds > 0)
      std::printf("%14.2f", outcomes[1].seconds / outcomes[0].seconds);
    else
      std::printf("%14s", "");
    for (size_t i = 0; i < outcomes.size(); ++i)
      std::printf("  %s %s (%.3g)", platforms[i].label.c_str(), outcomes[i].correct ? "correct" : "WRONG", outcomes[i].difference);
    std::printf("\n");
  }
  for (Platform& p : platforms) closePlatform(p);
  if (!correct) return 1;
  return complete ? 0 : 3;
}
