#include "backends/cuda/cuda_texture_mirror.h"

#include <algorithm>

#include "loom/core/log.h"

namespace loom::backends::cuda {

// Each thread copies the texels of its columns (from ctaid.x * ntid.x + tid.x in steps of
// nctaid.x * ntid.x) in the rows of its block (from ctaid.y in steps of nctaid.y). The stale word
// is read first, so a launch over a current array costs its threads one load.
const char kTextureMirrorRefreshEntry[] = "loom_refresh_texture_mirror";
const char kTextureMirrorRefreshPtx[] = R"(
.version 6.0
.target sm_50
.address_size 64

.visible .entry loom_refresh_texture_mirror(
    .param .u64 stale_word,
    .param .u64 texels,
    .param .u64 row_pitch,
    .param .u64 surface,
    .param .u32 width,
    .param .u32 height)
{
    .reg .pred %p<3>;
    .reg .b32 %r<14>;
    .reg .b64 %rd<9>;

    ld.param.u64 %rd1, [stale_word];
    ld.global.u32 %r1, [%rd1];
    setp.eq.u32 %p1, %r1, 0;
    @%p1 bra DONE;
    ld.param.u32 %r2, [width];
    ld.param.u32 %r7, [height];
    ld.param.u64 %rd2, [texels];
    ld.param.u64 %rd3, [row_pitch];
    ld.param.u64 %rd4, [surface];
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %tid.x;
    mad.lo.u32 %r6, %r3, %r4, %r5;
    mov.u32 %r3, %nctaid.x;
    mul.lo.u32 %r5, %r3, %r4;
    mov.u32 %r9, %ctaid.y;
    mov.u32 %r10, %nctaid.y;
ROW:
    setp.ge.u32 %p2, %r9, %r7;
    @%p2 bra DONE;
    cvt.u64.u32 %rd6, %r9;
    mad.lo.u64 %rd7, %rd6, %rd3, %rd2;
    mov.u32 %r3, %r6;
COLUMN:
    setp.ge.u32 %p1, %r3, %r2;
    @%p1 bra NEXT_ROW;
    shl.b32 %r8, %r3, 4;
    cvt.u64.u32 %rd5, %r8;
    add.u64 %rd8, %rd7, %rd5;
    ld.global.nc.v4.u32 {%r11, %r12, %r13, %r1}, [%rd8];
    sust.b.2d.v4.b32.trap [%rd4, {%r8, %r9}], {%r11, %r12, %r13, %r1};
    add.u32 %r3, %r3, %r5;
    bra COLUMN;
NEXT_ROW:
    add.u32 %r9, %r9, %r10;
    bra ROW;
DONE:
    ret;
}
)";

namespace {

// At most 4 x 64 blocks of 256 threads: few enough that a launch over a current array, whose
// blocks only read the word, costs little; enough threads to copy at a good share of the
// memory's bandwidth when the array is stale.
constexpr uint32_t kRefreshBlockTexels = 256;
constexpr uint32_t kRefreshColumnBlocks = 4;
constexpr uint32_t kRefreshRowBlocks = 64;

// The body of `entry` from its opening brace to the matching closing one; empty when not found.
std::string_view entryBody(std::string_view ptx, std::string_view entry) {
  const std::string header = ".entry " + std::string(entry) + "(";
  const size_t at = ptx.find(header);
  if (at == std::string_view::npos) return {};
  const size_t open = ptx.find('{', at);
  if (open == std::string_view::npos) return {};
  int depth = 0;
  for (size_t i = open; i < ptx.size(); ++i) {
    if (ptx[i] == '{') ++depth;
    if (ptx[i] == '}' && --depth == 0) return ptx.substr(open, i + 1 - open);
  }
  return {};
}

// An instruction whose mnemonic starts with `mnemonic`: after the tab or space that precedes every
// instruction ("\ttex.", "@%p1 tex."). A comment that matches only makes the answer cautious.
bool hasInstruction(std::string_view body, std::string_view mnemonic) {
  for (size_t at = body.find(mnemonic); at != std::string_view::npos; at = body.find(mnemonic, at + 1))
    if (at > 0 && (body[at - 1] == '\t' || body[at - 1] == ' ')) return true;
  return false;
}

}  // namespace

bool ptxEntryMaySampleTextures(std::string_view ptx, std::string_view entry) {
  const std::string_view body = entryBody(ptx, entry);
  if (body.empty()) return true;
  return hasInstruction(body, "tex.") || hasInstruction(body, "tld4.") || hasInstruction(body, "call");
}

bool TextureMirror::serves(const core::ImageShape& shape) {
  return shape.type == core::ImageType::Image2d && shape.format.order == core::ChannelOrder::RGBA &&
         shape.format.type == core::ChannelType::Float;
}

std::unique_ptr<TextureMirror> TextureMirror::create(const Driver& driver, const core::ImageShape& shape, CUdeviceptr texels,
                                                     CUfunction refresh, bool streamWrites) {
  std::unique_ptr<TextureMirror> mirror(new TextureMirror(driver, shape, texels, refresh, streamWrites));
  const CudaArray3dDescriptor described{shape.width, shape.height, 0, ArrayFormat::Float, 4, CUDA_ARRAY3D_SURFACE_LDST};
  CUresult result = driver.cuArray3DCreate(&mirror->array_, &described);
  const char* call = "cuArray3DCreate";
  if (result == CUDA_SUCCESS) {
    const CudaResourceDesc resource = mirror->resource();
    result = driver.cuSurfObjectCreate(&mirror->surface_, &resource);
    call = "cuSurfObjectCreate";
  }
  if (result == CUDA_SUCCESS) {
    result = driver.cuMemAlloc(&mirror->staleWord_, sizeof(uint32_t));
    call = "cuMemAlloc";
  }
  if (result != CUDA_SUCCESS) {
    core::debugMessage("%s; textures of a %llux%llu image read its pitched memory", driver.describe(call, result).c_str(),
                       static_cast<unsigned long long>(shape.width), static_cast<unsigned long long>(shape.height));
    return nullptr;
  }
  return mirror;
}

TextureMirror::~TextureMirror() {
  if (staleWord_) driver_.cuMemFree(staleWord_);
  if (surface_) driver_.cuSurfObjectDestroy(surface_);
  if (array_) driver_.cuArrayDestroy(array_);
}

CudaResourceDesc TextureMirror::resource() const {
  CudaResourceDesc resource{};
  resource.resType = CU_RESOURCE_TYPE_ARRAY;
  resource.res.array.hArray = array_;
  return resource;
}

TextureMirror::Issued TextureMirror::refresh(CUstream stream) const {
  uint64_t rowPitch = shape_.rowPitch;
  uint64_t surface = surface_;
  uint32_t width = static_cast<uint32_t>(shape_.width), height = static_cast<uint32_t>(shape_.height);
  CUdeviceptr word = staleWord_, texels = texels_;
  void* parameters[] = {&word, &texels, &rowPitch, &surface, &width, &height};
  const uint32_t columnBlocks = std::min((width + kRefreshBlockTexels - 1) / kRefreshBlockTexels, kRefreshColumnBlocks);
  const uint32_t rowBlocks = std::min(height, kRefreshRowBlocks);
  CUresult result = driver_.cuLaunchKernel(refresh_, columnBlocks, rowBlocks, 1, kRefreshBlockTexels, 1, 1, 0, stream,
                                           parameters, nullptr);
  if (result != CUDA_SUCCESS) return {result, "cuLaunchKernel(loom_refresh_texture_mirror)"};
  // A write in stream order, not the kernel's last block: refreshes of one image on two queues
  // at once then never clear the word before either has copied everything.
  return writeWord(stream, 0);
}

TextureMirror::Issued TextureMirror::markStale(CUstream stream) const { return writeWord(stream, 1); }

TextureMirror::Issued TextureMirror::writeWord(CUstream stream, uint32_t value) const {
  if (streamWrites_)
    return {driver_.cuStreamWriteValue32(stream, staleWord_, value, CU_STREAM_WRITE_VALUE_DEFAULT), "cuStreamWriteValue32"};
  return {driver_.cuMemsetD32Async(staleWord_, value, 1, stream), "cuMemsetD32Async"};
}

}  // namespace loom::backends::cuda
