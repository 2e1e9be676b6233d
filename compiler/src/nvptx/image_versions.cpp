#include "nvptx/image_versions.h"

#include <cstddef>
#include <string>

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include "loom/compiler/image_abi.h"
#include "loom/compiler/nvptx_launch_abi.h"

namespace loom::compiler::nvptx {

namespace {

constexpr const char* kDescriptorTypeName = "struct.ImageDescriptor";  // compiler/builtins/images.cl
constexpr uint32_t kChannelOrderRgba = 0x10B5;                        // CL_RGBA

// The entries of each kernel (kernel_entries.h): for any launch, and for whole groups where built.
std::vector<llvm::Function*> entriesOf(llvm::Module& module, const KernelDescriptor& kernel) {
  std::vector<llvm::Function*> entries;
  for (const std::string& name : {kernel.name, kernel.name + kWholeGroupsEntrySuffix})
    if (llvm::Function* entry = module.getFunction(name); entry && !entry->isDeclaration()) entries.push_back(entry);
  return entries;
}

std::vector<llvm::Argument*> imageParameters(llvm::Function& entry, const KernelDescriptor& kernel) {
  std::vector<llvm::Argument*> images;
  for (size_t index = 0; index < kernel.arguments.size() && index < entry.arg_size(); ++index)
    if (kernel.arguments[index].kind == ArgumentKind::Image) images.push_back(entry.getArg(static_cast<unsigned>(index)));
  return images;
}

// Every load that reads through `pointer` or an address computed from it.
void markLoadsInvariant(llvm::Value& pointer, llvm::MDNode* invariant) {
  llvm::SmallVector<llvm::Value*, 8> addresses{&pointer};
  while (!addresses.empty()) {
    llvm::Value* address = addresses.pop_back_val();
    for (llvm::User* user : address->users()) {
      if (auto* load = llvm::dyn_cast<llvm::LoadInst>(user)) {
        if (load->getPointerOperand() == address) load->setMetadata(llvm::LLVMContext::MD_invariant_load, invariant);
      } else if (llvm::isa<llvm::BitCastInst, llvm::GetElementPtrInst, llvm::AddrSpaceCastInst>(user)) {
        addresses.push_back(user);
      }
    }
  }
}

bool readsTextures(const llvm::Function& entry) {
  for (const llvm::BasicBlock& block : entry)
    for (const llvm::Instruction& instruction : block)
      if (const auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction))
        if (intrinsic->getIntrinsicID() == llvm::Intrinsic::nvvm_tex_unified_2d_v4f32_f32) return true;
  return false;
}

// Loads field `offset` (offsetof in ImageDescriptor) of `image`'s descriptor, addressed as the
// builtin library addresses it, so that the optimizer sees the library's loads as this one.
llvm::Value* loadDescriptorField(llvm::IRBuilder<>& builder, llvm::StructType* descriptor, llvm::Argument& image, size_t offset) {
  const llvm::DataLayout& layout = builder.GetInsertBlock()->getModule()->getDataLayout();
  const llvm::StructLayout* fields = layout.getStructLayout(descriptor);
  const unsigned field = fields->getElementContainingOffset(offset);
  llvm::Value* base = builder.CreatePointerCast(&image, descriptor->getPointerTo(image.getType()->getPointerAddressSpace()));
  llvm::Type* type = descriptor->getElementType(field);
  llvm::SmallVector<llvm::Value*, 3> indices{builder.getInt64(0), builder.getInt32(field)};
  if (auto* array = llvm::dyn_cast<llvm::ArrayType>(type)) {  // textures[0]
    indices.push_back(builder.getInt64(0));
    type = array->getElementType();
  }
  llvm::Value* address = builder.CreateInBoundsGEP(descriptor, base, indices);
  llvm::LoadInst* load = builder.CreateAlignedLoad(type, address, llvm::Align(layout.getABITypeAlign(type)));
  load->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(builder.getContext(), {}));
  return load;
}

// The builtin library's ImageDescriptor, laid out as image_abi.h says (a program's own type of that
// name would have taken another).
bool isImageDescriptor(llvm::StructType* type, const llvm::DataLayout& layout) {
  if (!type || type->isOpaque() || layout.getTypeAllocSize(type) != sizeof(ImageDescriptor)) return false;
  const llvm::StructLayout* fields = layout.getStructLayout(type);
  for (size_t offset : {offsetof(ImageDescriptor, channelOrder), offsetof(ImageDescriptor, textures)})
    if (fields->getElementOffset(fields->getElementContainingOffset(offset)) != offset) return false;
  return true;
}

// True when every image is CL_RGBA and has texture objects.
llvm::Value* allTexturedRgba(llvm::IRBuilder<>& builder, llvm::StructType* descriptor, const std::vector<llvm::Argument*>& images) {
  llvm::Value* all = builder.getTrue();
  for (llvm::Argument* image : images) {
    llvm::Value* order = loadDescriptorField(builder, descriptor, *image, offsetof(ImageDescriptor, channelOrder));
    llvm::Value* texture = loadDescriptorField(builder, descriptor, *image, offsetof(ImageDescriptor, textures));
    all = builder.CreateAnd(all, builder.CreateICmpEQ(order, builder.getInt32(kChannelOrderRgba)));
    all = builder.CreateAnd(all, builder.CreateICmpNE(texture, builder.getInt64(0)));
  }
  return all;
}

// Copies every block but the entry block; the entry block ends in `general`, which takes over its
// branch, or in the copy of that branch, in `specialized`, as `condition` says.
void versionBody(llvm::Function& entry, llvm::Value* condition) {
  llvm::BasicBlock& setup = entry.getEntryBlock();
  llvm::SmallVector<llvm::BasicBlock*, 64> body;
  for (llvm::BasicBlock& block : entry)
    if (&block != &setup) body.push_back(&block);
  llvm::ValueToValueMapTy copies;
  llvm::SmallVector<llvm::BasicBlock*, 64> copied;
  for (llvm::BasicBlock* block : body) {
    llvm::BasicBlock* copy = llvm::CloneBasicBlock(block, copies, ".rgba_textures", &entry);
    copies[block] = copy;
    copied.push_back(copy);
  }
  llvm::LLVMContext& context = entry.getContext();
  auto* general = llvm::BasicBlock::Create(context, "general", &entry);
  auto* specialized = llvm::BasicBlock::Create(context, "rgba_textures", &entry);
  llvm::Instruction* branch = setup.getTerminator();
  branch->moveBefore(*general, general->end());
  specialized->getInstList().push_back(branch->clone());
  copied.push_back(specialized);
  for (llvm::BasicBlock* block : body) block->replacePhiUsesWith(&setup, general);
  llvm::remapInstructionsInBlocks(copied, copies);
  for (llvm::BasicBlock* block : copied) block->replacePhiUsesWith(&setup, specialized);
  llvm::BranchInst::Create(specialized, general, condition, &setup);
}

}  // namespace

void markImageDescriptorsInvariant(llvm::Module& module, const std::vector<KernelDescriptor>& kernels) {
  llvm::MDNode* invariant = llvm::MDNode::get(module.getContext(), {});
  for (const KernelDescriptor& kernel : kernels)
    for (llvm::Function* entry : entriesOf(module, kernel))
      for (llvm::Argument* image : imageParameters(*entry, kernel)) {
        entry->addParamAttr(image->getArgNo(), llvm::Attribute::getWithDereferenceableBytes(module.getContext(), sizeof(ImageDescriptor)));
        entry->addParamAttr(image->getArgNo(), llvm::Attribute::getWithAlignment(module.getContext(), llvm::Align(alignof(ImageDescriptor))));
        markLoadsInvariant(*image, invariant);
      }
}

void versionEntriesForTexturedRgbaImages(llvm::Module& module, const std::vector<KernelDescriptor>& kernels) {
  llvm::StructType* descriptor = llvm::StructType::getTypeByName(module.getContext(), kDescriptorTypeName);
  if (!isImageDescriptor(descriptor, module.getDataLayout())) return;  // no image builtin in the program
  for (const KernelDescriptor& kernel : kernels)
    for (llvm::Function* entry : entriesOf(module, kernel)) {
      const std::vector<llvm::Argument*> images = imageParameters(*entry, kernel);
      if (images.empty() || !readsTextures(*entry)) continue;
      llvm::IRBuilder<> builder(entry->getEntryBlock().getTerminator());
      versionBody(*entry, allTexturedRgba(builder, descriptor, images));
    }
}

}  // namespace loom::compiler::nvptx
