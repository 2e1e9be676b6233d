// Runs a fuzz target without libFuzzer (the default g++ build and the sanitizer build): every file
// of the corpora it is given, then a bounded, deterministic set of mutations of each: bit flips,
// byte changes, truncations, changed SPIR-V word counts and changed 32-bit fields that look like
// lengths or counts. The same files always give the same inputs, so a failure repeats, and
// --write-input=FILE keeps the input being run in FILE, which after a crash is the one that crashed.
// Usage: <target>_replay [--mutations=N] [--write-input=FILE] [--verbose] <file or directory>...
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

using Bytes = std::vector<uint8_t>;

// splitmix64: the same sequence on every machine and compiler.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  size_t below(size_t bound) { return bound == 0 ? 0 : next() % bound; }

 private:
  uint64_t state_;
};

uint32_t load32(const Bytes& bytes, size_t at) {
  uint32_t value;
  std::memcpy(&value, bytes.data() + at, 4);
  return value;
}

void store32(Bytes& bytes, size_t at, uint32_t value) { std::memcpy(bytes.data() + at, &value, 4); }

Bytes flipBits(Bytes bytes, Random& random) {
  for (size_t flips = 1 + random.below(4); flips > 0 && !bytes.empty(); --flips)
    bytes[random.below(bytes.size())] ^= uint8_t(1u << random.below(8));
  return bytes;
}

Bytes changeByte(Bytes bytes, Random& random) {
  static const uint8_t kInteresting[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
  if (bytes.empty()) return bytes;
  const size_t at = random.below(bytes.size());
  bytes[at] = random.below(2) ? kInteresting[random.below(sizeof(kInteresting))] : uint8_t(random.next());
  return bytes;
}

Bytes truncate(Bytes bytes, Random& random) {
  size_t size = random.below(bytes.size());
  if (random.below(2)) size &= ~size_t(3);  // whole SPIR-V words: past the size check
  bytes.resize(size);
  return bytes;
}

// Byte offsets of the instructions of a SPIR-V module; none when the bytes are not SPIR-V.
std::vector<size_t> instructionOffsets(const Bytes& bytes) {
  std::vector<size_t> offsets;
  if (bytes.size() < 20 || load32(bytes, 0) != 0x07230203) return offsets;
  for (size_t at = 20; at + 4 <= bytes.size();) {
    const uint32_t words = load32(bytes, at) >> 16;
    if (words == 0) break;
    offsets.push_back(at);
    at += size_t(words) * 4;
  }
  return offsets;
}

Bytes changeWordCount(Bytes bytes, Random& random) {
  const std::vector<size_t> offsets = instructionOffsets(bytes);
  if (offsets.empty()) return flipBits(std::move(bytes), random);
  const size_t at = offsets[random.below(offsets.size())];
  const uint32_t first = load32(bytes, at), words = first >> 16;
  const uint32_t counts[] = {0, 1, words - 1, words + 1, words + 2, 0xffff, uint32_t(random.next()) & 0xffff};
  store32(bytes, at, ((counts[random.below(std::size(counts))] & 0xffff) << 16) | (first & 0xffff));
  return bytes;
}

// 32-bit values v at any offset with 0 < v <= the bytes after them: string lengths, item counts,
// section offsets and sizes, SPIR-V's id bound and operand counts.
Bytes changeLengthField(Bytes bytes, Random& random) {
  std::vector<size_t> candidates;
  for (size_t at = 0; at + 4 <= bytes.size(); ++at) {
    const uint32_t value = load32(bytes, at);
    if (value != 0 && value <= bytes.size() - at - 4) candidates.push_back(at);
  }
  if (candidates.empty()) return flipBits(std::move(bytes), random);
  const size_t at = candidates[random.below(candidates.size())];
  const uint32_t value = load32(bytes, at);
  const uint32_t lengths[] = {0, value - 1, value + 1, value * 2, uint32_t(bytes.size()), 0x7fffffff, 0x80000000, 0xffffffff};
  store32(bytes, at, lengths[random.below(std::size(lengths))]);
  return bytes;
}

struct Mutation {
  const char* name;
  Bytes (*apply)(Bytes, Random&);
};
const Mutation kMutations[] = {{"bit flips", flipBits},
                               {"byte change", changeByte},
                               {"truncation", truncate},
                               {"word count", changeWordCount},
                               {"length field", changeLengthField}};

uint64_t contentHash(const Bytes& bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (uint8_t byte : bytes) hash = (hash ^ byte) * 0x100000001b3ull;
  return hash;
}

struct Options {
  size_t mutations = 40;  // per kind of mutation and seed file
  std::string inputFile;
  bool verbose = false;
  std::vector<std::filesystem::path> seeds;
};

bool parseArguments(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument.rfind("--mutations=", 0) == 0) {
      options.mutations = std::stoul(argument.substr(12));
    } else if (argument.rfind("--write-input=", 0) == 0) {
      options.inputFile = argument.substr(14);
    } else if (argument == "--verbose") {
      options.verbose = true;
    } else if (argument.rfind("--", 0) == 0) {
      std::fprintf(stderr, "unknown option %s\n", argument.c_str());
      return false;
    } else if (std::filesystem::is_directory(argument)) {
      for (const auto& entry : std::filesystem::directory_iterator(argument))
        if (entry.is_regular_file()) options.seeds.push_back(entry.path());
    } else {
      options.seeds.push_back(argument);
    }
  }
  std::sort(options.seeds.begin(), options.seeds.end());
  if (!options.seeds.empty()) return true;
  std::fprintf(stderr, "usage: %s [--mutations=N] [--write-input=FILE] [--verbose] <file or directory>...\n", argv[0]);
  return false;
}

class Replay {
 public:
  explicit Replay(const Options& options) : options_(options) {}

  void run(const Bytes& input, const std::string& what) {
    if (options_.verbose) std::fprintf(stderr, "running %s\n", what.c_str());
    if (!options_.inputFile.empty()) {
      std::ofstream file(options_.inputFile, std::ios::binary | std::ios::trunc);
      file.write(reinterpret_cast<const char*>(input.data()), std::streamsize(input.size()));
    }
    LLVMFuzzerTestOneInput(input.data(), input.size());
    ++inputs_;
  }

  void runWithMutations(const std::filesystem::path& path, const Bytes& seed) {
    run(seed, path.string());
    for (size_t kind = 0; kind < std::size(kMutations); ++kind) {
      Random random(contentHash(seed) + kind);
      for (size_t round = 0; round < options_.mutations; ++round)
        run(kMutations[kind].apply(seed, random), path.string() + ": " + kMutations[kind].name + " " + std::to_string(round));
    }
  }

  size_t inputs() const { return inputs_; }

 private:
  const Options& options_;
  size_t inputs_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parseArguments(argc, argv, options)) return 2;
  const auto start = std::chrono::steady_clock::now();
  Replay replay(options);
  for (const auto& path : options.seeds) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
      std::fprintf(stderr, "cannot read %s\n", path.c_str());
      return 2;
    }
    replay.runWithMutations(path, Bytes(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("replayed %zu inputs from %zu files in %.1f s: no crash\n", replay.inputs(), options.seeds.size(), seconds);
  return 0;
}
