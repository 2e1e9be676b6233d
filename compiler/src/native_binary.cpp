// Loom's native binary: an ELF64 container with two sections besides the section names,
// `.loom.info` (the ProgramInfo, versioned) and `.loom.code.<target>` (the target's code).
// The reader checks every offset, size and count before it uses it.
#include "native_binary.h"

#include <cstring>

#include "cpu/code_partitions.h"
#include "loom/compiler/compiler.h"

namespace loom::compiler {

namespace {

constexpr uint32_t kInfoVersion = 8;  // 6: unavailable kernels; 7: uniformGroupsOnly; 8: image and sampler arguments
constexpr uint16_t kElfMachineNone = 0;
constexpr uint32_t kSectionProgramBits = 1, kSectionStringTable = 3;
constexpr size_t kElfHeaderSize = 64, kSectionHeaderSize = 64;
const char kSectionNames[] = "\0.shstrtab\0.loom.info\0.loom.code.cpu\0.loom.code.nvptx\0";
constexpr uint32_t kNameShstrtab = 1, kNameInfo = 11, kNameCodeCpu = 22, kNameCodeNvptx = 37;

class Writer {
 public:
  template <typename T>
  void put(T value) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
    out.insert(out.end(), bytes, bytes + sizeof(T));
  }
  void put(const std::string& text) {
    put(static_cast<uint32_t>(text.size()));
    out.insert(out.end(), text.begin(), text.end());
  }
  void putBytes(const void* data, size_t size) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    out.insert(out.end(), bytes, bytes + size);
  }
  std::vector<uint8_t> out;
};

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  template <typename T>
  bool get(T& value) {
    if (sizeof(T) > size_ - position_) return failed_ = true, false;
    std::memcpy(&value, data_ + position_, sizeof(T));
    position_ += sizeof(T);
    return true;
  }
  bool get(std::string& text) {
    uint32_t length = 0;
    if (!get(length) || length > size_ - position_) return failed_ = true, false;
    text.assign(reinterpret_cast<const char*>(data_ + position_), length);
    position_ += length;
    return true;
  }
  // A count of items each at least `minimumItemSize` bytes: bounded by what is left.
  bool getCount(uint32_t& count, size_t minimumItemSize) {
    return get(count) && (count <= (size_ - position_) / minimumItemSize || (failed_ = true, false));
  }
  bool failed() const { return failed_; }
  bool atEnd() const { return position_ == size_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t position_ = 0;
  bool failed_ = false;
};

void writeInfo(Writer& w, const ProgramInfo& info) {
  w.put(kInfoVersion);
  w.put(static_cast<uint32_t>(info.kernels.size()));
  for (const KernelDescriptor& k : info.kernels) {
    w.put(k.name);
    w.put(static_cast<uint32_t>(k.arguments.size()));
    for (const KernelArgument& a : k.arguments) {
      w.put(static_cast<uint8_t>(a.kind)), w.put(a.offset), w.put(a.size), w.put(a.alignment);
      w.put(a.name), w.put(a.typeName);
      w.put(static_cast<uint8_t>(a.addressQualifier)), w.put(static_cast<uint8_t>(a.accessQualifier)), w.put(a.typeQualifiers);
    }
    w.put(k.argumentBufferSize), w.put(k.staticLocalMemorySize), w.put(k.privateMemorySize), w.put(k.barrierFrameSize);
    w.put(static_cast<uint8_t>(k.hasBarriers)), w.put(static_cast<uint8_t>(k.uniformGroupsOnly));
    for (uint32_t v : k.requiredWorkGroupSize) w.put(v);
    for (uint32_t v : k.workGroupSizeHint) w.put(v);
    w.put(k.requiredSubGroupSize), w.put(k.vectorTypeHint), w.put(k.attributes);
  }
  w.put(static_cast<uint32_t>(info.globals.size()));
  for (const auto& g : info.globals) w.put(g.name), w.put(g.size);
  w.put(info.globalVariableTotalSize);
  for (const auto* names : {&info.exportedFunctions, &info.importedFunctions}) {
    w.put(static_cast<uint32_t>(names->size()));
    for (const std::string& name : *names) w.put(name);
  }
  w.put(static_cast<uint32_t>(info.unavailableKernels.size()));
  for (const UnavailableKernel& kernel : info.unavailableKernels) w.put(kernel.name), w.put(kernel.reason);
}

template <typename Enum>
bool getEnum(Reader& r, Enum& value, uint8_t last) {
  uint8_t raw = 0;
  if (!r.get(raw) || raw > last) return false;
  value = static_cast<Enum>(raw);
  return true;
}

bool readArgument(Reader& r, KernelArgument& a) {
  return getEnum(r, a.kind, static_cast<uint8_t>(ArgumentKind::Image)) && r.get(a.offset) && r.get(a.size) &&
         r.get(a.alignment) && r.get(a.name) && r.get(a.typeName) &&
         getEnum(r, a.addressQualifier, static_cast<uint8_t>(AddressQualifier::Local)) &&
         getEnum(r, a.accessQualifier, static_cast<uint8_t>(AccessQualifier::ReadWrite)) && r.get(a.typeQualifiers);
}

bool readKernel(Reader& r, KernelDescriptor& k) {
  uint32_t arguments = 0;
  if (!r.get(k.name) || !r.getCount(arguments, 20)) return false;
  k.arguments.resize(arguments);
  for (KernelArgument& a : k.arguments)
    if (!readArgument(r, a)) return false;
  uint8_t barriers = 0, uniformGroupsOnly = 0;
  bool ok = r.get(k.argumentBufferSize) && r.get(k.staticLocalMemorySize) && r.get(k.privateMemorySize) &&
            r.get(k.barrierFrameSize) && r.get(barriers) && r.get(uniformGroupsOnly);
  for (uint32_t& v : k.requiredWorkGroupSize) ok = ok && r.get(v);
  for (uint32_t& v : k.workGroupSizeHint) ok = ok && r.get(v);
  ok = ok && r.get(k.requiredSubGroupSize) && r.get(k.vectorTypeHint) && r.get(k.attributes);
  k.hasBarriers = barriers != 0;
  k.uniformGroupsOnly = uniformGroupsOnly != 0;
  return ok;
}

bool readInfo(Reader& r, ProgramInfo& info) {
  uint32_t version = 0, kernels = 0, globals = 0;
  if (!r.get(version) || version != kInfoVersion || !r.getCount(kernels, 4)) return false;
  info.kernels.resize(kernels);
  for (KernelDescriptor& k : info.kernels)
    if (!readKernel(r, k)) return false;
  if (!r.getCount(globals, 12)) return false;
  info.globals.resize(globals);
  for (auto& g : info.globals)
    if (!r.get(g.name) || !r.get(g.size)) return false;
  if (!r.get(info.globalVariableTotalSize)) return false;
  for (auto* names : {&info.exportedFunctions, &info.importedFunctions}) {
    uint32_t count = 0;
    if (!r.getCount(count, 4)) return false;
    names->resize(count);
    for (std::string& name : *names)
      if (!r.get(name)) return false;
  }
  uint32_t unavailable = 0;
  if (!r.getCount(unavailable, 8)) return false;
  info.unavailableKernels.resize(unavailable);
  for (UnavailableKernel& kernel : info.unavailableKernels)
    if (!r.get(kernel.name) || !r.get(kernel.reason)) return false;
  return r.atEnd();
}

struct Section {
  uint32_t name, type;
  uint64_t offset, size;
};

void writeSectionHeader(Writer& w, const Section& s) {
  w.put(s.name), w.put(s.type), w.put(uint64_t(0)) /* flags */, w.put(uint64_t(0)) /* address */;
  w.put(s.offset), w.put(s.size), w.put(uint32_t(0)) /* link */, w.put(uint32_t(0)) /* info */;
  w.put(uint64_t(1)) /* alignment */, w.put(uint64_t(0)) /* entry size */;
}

// FNV-1a over the whole file but the hash itself, kept in the ELF header's unused entry field:
// any flipped byte is caught before the object reaches the JIT's loader.
constexpr size_t kHashOffset = 24;
uint64_t contentHash(const uint8_t* data, size_t size) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i)
    if (i < kHashOffset || i >= kHashOffset + sizeof(uint64_t)) hash = (hash ^ data[i]) * 0x100000001b3ull;
  return hash;
}

BuildResult invalid(const std::string& why) { return {Status::InvalidBinary, "invalid native binary: " + why, nullptr}; }

}  // namespace

std::vector<uint8_t> writeNativeBinary(const CompiledProgram& program) {
  Writer info;
  writeInfo(info, program.info);
  Writer w;
  const uint64_t namesOffset = kElfHeaderSize, infoOffset = namesOffset + sizeof(kSectionNames);
  const uint64_t codeOffset = infoOffset + info.out.size();
  const uint64_t sectionsOffset = codeOffset + program.code.size();
  const uint8_t identity[16] = {0x7f, 'E', 'L', 'F', 2 /* 64-bit */, 1 /* little endian */, 1 /* version */};
  w.putBytes(identity, sizeof(identity));
  w.put(uint16_t(1) /* relocatable */), w.put(kElfMachineNone), w.put(uint32_t(1));
  w.put(uint64_t(0)) /* entry: the content hash, written last */, w.put(uint64_t(0)) /* program headers */;
  w.put(sectionsOffset);
  w.put(uint32_t(0)) /* flags */, w.put(uint16_t(kElfHeaderSize)), w.put(uint16_t(0)), w.put(uint16_t(0));
  w.put(uint16_t(kSectionHeaderSize)), w.put(uint16_t(4)) /* sections */, w.put(uint16_t(1)) /* names section */;
  w.putBytes(kSectionNames, sizeof(kSectionNames));
  w.putBytes(info.out.data(), info.out.size());
  w.putBytes(program.code.data(), program.code.size());
  const uint32_t codeName = program.target == Target::Cpu ? kNameCodeCpu : kNameCodeNvptx;
  for (const Section& s : {Section{0, 0, 0, 0}, Section{kNameShstrtab, kSectionStringTable, namesOffset, sizeof(kSectionNames)},
                           Section{kNameInfo, kSectionProgramBits, infoOffset, info.out.size()},
                           Section{codeName, kSectionProgramBits, codeOffset, program.code.size()}})
    writeSectionHeader(w, s);
  sealNativeBinary(w.out.data(), w.out.size());
  return w.out;
}

void sealNativeBinary(uint8_t* data, size_t size) {
  if (size < kElfHeaderSize) return;
  const uint64_t hash = contentHash(data, size);
  std::memcpy(data + kHashOffset, &hash, sizeof(hash));
}

BuildResult readNativeBinary(const uint8_t* data, size_t size) {
  if (!data || size < kElfHeaderSize) return invalid("shorter than an ELF header");
  if (std::memcmp(data, "\x7f" "ELF\x02\x01\x01", 7) != 0) return invalid("not a 64-bit little-endian ELF file");
  uint64_t sectionsOffset;
  uint16_t machine, sectionCount, sectionSize;
  std::memcpy(&machine, data + 18, 2);
  std::memcpy(&sectionsOffset, data + 40, 8);
  std::memcpy(&sectionSize, data + 58, 2);
  std::memcpy(&sectionCount, data + 60, 2);
  if (machine != kElfMachineNone || sectionSize != kSectionHeaderSize || sectionCount != 4) return invalid("not a Loom binary");
  if (sectionsOffset > size || (size - sectionsOffset) / kSectionHeaderSize < sectionCount) return invalid("truncated section table");
  Section sections[4];
  for (int i = 0; i < 4; ++i) {
    const uint8_t* header = data + sectionsOffset + i * kSectionHeaderSize;
    std::memcpy(&sections[i].name, header, 4);
    std::memcpy(&sections[i].type, header + 4, 4);
    std::memcpy(&sections[i].offset, header + 24, 8);
    std::memcpy(&sections[i].size, header + 32, 8);
    if (sections[i].offset > size || sections[i].size > size - sections[i].offset) return invalid("a section lies outside the file");
  }
  const Section& info = sections[2];
  const Section& code = sections[3];
  if (sections[1].size != sizeof(kSectionNames) || std::memcmp(data + sections[1].offset, kSectionNames, sizeof(kSectionNames)) != 0 ||
      info.name != kNameInfo || (code.name != kNameCodeCpu && code.name != kNameCodeNvptx))
    return invalid("unexpected sections");
  uint64_t hash;
  std::memcpy(&hash, data + kHashOffset, sizeof(hash));
  if (hash != contentHash(data, size)) return invalid("checksum mismatch (corrupted)");
  auto program = std::make_shared<CompiledProgram>();
  program->target = code.name == kNameCodeCpu ? Target::Cpu : Target::Nvptx;
  Reader reader(data + info.offset, info.size);
  if (!readInfo(reader, program->info)) return invalid("corrupted program information");
  for (const KernelDescriptor& kernel : program->info.kernels)
    if (const std::string problem = checkKernelDescriptor(kernel); !problem.empty()) return invalid(problem);
  program->code.assign(data + code.offset, data + code.offset + code.size);
  if (program->target == Target::Cpu && !cpu::objectsOf(program->code)) return invalid("the CPU code is not a list of object files");
  return {Status::Success, "", std::move(program)};
}

}  // namespace loom::compiler
