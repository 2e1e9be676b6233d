// boost.compute's algorithms on the first device of the OpenCL platform named on the command line,
// each checked against the host: sort, reduce, transform (a BOOST_COMPUTE_FUNCTION, which
// boost.compute emits as a plain C99 `inline` helper), inclusive_scan and max_element.
// Prints one line per algorithm and exits non-zero if any result is wrong.
#include <algorithm>
#include <boost/compute/algorithm.hpp>
#include <boost/compute/container/vector.hpp>
#include <boost/compute/core.hpp>
#include <boost/compute/function.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace compute = boost::compute;

namespace {

BOOST_COMPUTE_FUNCTION(float, scale_and_shift, (float x), { return 2.5f * x + 1.0f; });

compute::device deviceOf(const std::string& platformName) {
  for (const compute::platform& platform : compute::system::platforms())
    if (platform.name().find(platformName) != std::string::npos) return platform.devices().at(0);
  throw std::runtime_error("no OpenCL platform named " + platformName);
}

// Runs `check` and prints its name, verdict and wall time (first run: includes building kernels).
template <typename Check>
bool report(const char* name, Check check) {
  const auto start = std::chrono::steady_clock::now();
  const bool correct = check();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%-15s %-8s %8.3f s\n", name, correct ? "correct" : "WRONG", seconds);
  return correct;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string platformName = argc > 1 ? argv[1] : "Loom";
  const compute::device device = deviceOf(platformName);
  compute::context context(device);
  compute::command_queue queue(context, device);
  std::printf("boost.compute on %s (%s)\n", device.platform().name().c_str(), device.name().c_str());

  constexpr size_t kCount = 1 << 20;
  std::mt19937 generator(7);
  std::uniform_real_distribution<float> values(-1000.0f, 1000.0f);
  std::vector<float> host(kCount);
  for (float& value : host) value = values(generator);
  std::vector<int> integers(kCount);
  for (size_t i = 0; i < kCount; ++i) integers[i] = static_cast<int>(i % 1000) - 500;

  bool allCorrect = true;
  allCorrect &= report("sort", [&] {
    compute::vector<float> data(host.begin(), host.end(), queue);
    compute::sort(data.begin(), data.end(), queue);
    std::vector<float> result(kCount), expected = host;
    compute::copy(data.begin(), data.end(), result.begin(), queue);
    std::sort(expected.begin(), expected.end());
    return result == expected;
  });
  allCorrect &= report("reduce", [&] {
    compute::vector<int> data(integers.begin(), integers.end(), queue);
    cl_long sum = 0;
    compute::reduce(data.begin(), data.end(), &sum, queue);
    return sum == std::accumulate(integers.begin(), integers.end(), cl_long(0));
  });
  allCorrect &= report("transform", [&] {
    compute::vector<float> data(host.begin(), host.end(), queue);
    compute::transform(data.begin(), data.end(), data.begin(), scale_and_shift, queue);
    std::vector<float> result(kCount);
    compute::copy(data.begin(), data.end(), result.begin(), queue);
    // OpenCL C contracts a * x + b into a fused multiply-add where the device has one.
    for (size_t i = 0; i < kCount; ++i)
      if (result[i] != 2.5f * host[i] + 1.0f && result[i] != std::fma(2.5f, host[i], 1.0f)) return false;
    return true;
  });
  allCorrect &= report("inclusive_scan", [&] {
    compute::vector<int> data(integers.begin(), integers.end(), queue);
    compute::inclusive_scan(data.begin(), data.end(), data.begin(), queue);
    std::vector<int> result(kCount), expected(kCount);
    compute::copy(data.begin(), data.end(), result.begin(), queue);
    std::partial_sum(integers.begin(), integers.end(), expected.begin());
    return result == expected;
  });
  allCorrect &= report("max_element", [&] {
    compute::vector<float> data(host.begin(), host.end(), queue);
    const auto found = compute::max_element(data.begin(), data.end(), queue);
    return static_cast<size_t>(found - data.begin()) ==
           static_cast<size_t>(std::max_element(host.begin(), host.end()) - host.begin());
  });
  return allCorrect ? 0 : 1;
}
