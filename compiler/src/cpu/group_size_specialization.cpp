#include "group_size_specialization.h"

#include <optional>
#include <utility>
#include <vector>

#include "context_access.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "work_group_function_builder.h"

namespace loom::compiler::cpu {

namespace {

using GroupSize = std::array<uint32_t, 3>;

constexpr size_t kSizeFields[] = {LOOM_CONTEXT_FIELD(localSize), LOOM_CONTEXT_FIELD(enqueuedLocalSize)};

// The element of `size` that `load` reads, when it reads one of the context's size fields.
std::optional<uint32_t> sizeRead(llvm::LoadInst& load, const llvm::Value* context, const GroupSize& size) {
  if (!load.getType()->isIntegerTy(32) || !load.isSimple()) return std::nullopt;
  const llvm::DataLayout& layout = load.getModule()->getDataLayout();
  llvm::APInt offset(layout.getIndexTypeSizeInBits(load.getPointerOperandType()), 0);
  if (load.getPointerOperand()->stripAndAccumulateConstantOffsets(layout, offset, true) != context) return std::nullopt;
  for (size_t field : kSizeFields) {
    const int64_t byte = offset.getSExtValue() - static_cast<int64_t>(field);
    if (byte >= 0 && byte < static_cast<int64_t>(sizeof(GroupSize)) && byte % sizeof(uint32_t) == 0) return size[byte / sizeof(uint32_t)];
  }
  return std::nullopt;
}

void readSizesAsConstants(llvm::Function& function, const GroupSize& size) {
  const llvm::Value* context = function.getArg(kContext);
  std::vector<std::pair<llvm::LoadInst*, uint32_t>> reads;
  for (llvm::Instruction& instruction : llvm::instructions(function))
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction))
      if (auto value = sizeRead(*load, context, size)) reads.emplace_back(load, *value);
  for (auto [load, value] : reads) {
    load->replaceAllUsesWith(llvm::ConstantInt::get(load->getType(), value));
    load->eraseFromParent();
  }
}

// Whether the group the context describes has `size` (local and enqueued alike).
llvm::Value* groupHasSize(llvm::IRBuilder<>& builder, llvm::Value* context, const GroupSize& size) {
  llvm::Value* matches = builder.getTrue();
  for (size_t field : kSizeFields)
    for (unsigned d = 0; d < 3; ++d) {
      llvm::Value* actual = loadContextField(builder, context, field + d * sizeof(uint32_t), builder.getInt32Ty());
      matches = builder.CreateAnd(matches, builder.CreateICmpEQ(actual, builder.getInt32(size[d])));
    }
  return matches;
}

// The code for groups of other sizes: a copy kept apart and left unoptimized, which the rare
// smaller last groups of a non-uniform range can afford and which keeps the build as fast as
// without the specialization.
llvm::Function* cloneForOtherSizes(llvm::Function& function) {
  llvm::ValueToValueMapTy mapping;
  llvm::Function* general = llvm::CloneFunction(&function, mapping);
  general->setName(function.getName() + ".other_sizes");
  general->setLinkage(llvm::GlobalValue::InternalLinkage);
  general->removeFnAttr(kWorkGroupFunctionAttribute);
  general->addFnAttr(llvm::Attribute::NoInline);
  general->addFnAttr(llvm::Attribute::OptimizeNone);
  return general;
}

// entry: allocas; then `if (group has another size) { general(arguments); return; }`.
void callWhenOtherSize(llvm::Function& function, llvm::Function& general, const GroupSize& size) {
  llvm::BasicBlock& entry = function.getEntryBlock();
  llvm::Instruction* first = &*entry.getFirstInsertionPt();
  while (llvm::isa<llvm::AllocaInst>(first)) first = first->getNextNode();
  llvm::BasicBlock* sized = entry.splitBasicBlock(first, "fixed_size");
  auto* other = llvm::BasicBlock::Create(function.getContext(), "other_size", &function, sized);
  entry.getTerminator()->eraseFromParent();
  llvm::IRBuilder<> builder(&entry);
  builder.CreateCondBr(groupHasSize(builder, function.getArg(kContext), size), sized, other);
  builder.SetInsertPoint(other);
  std::vector<llvm::Value*> arguments;
  for (llvm::Argument& argument : function.args()) arguments.push_back(&argument);
  builder.CreateCall(&general, arguments);
  builder.CreateRetVoid();
}

}  // namespace

void specializeForGroupSize(llvm::Function& workGroupFunction, const GroupSize& size, bool otherSizes) {
  llvm::Function* general = otherSizes ? cloneForOtherSizes(workGroupFunction) : nullptr;
  readSizesAsConstants(workGroupFunction, size);
  if (general) callWhenOtherSize(workGroupFunction, *general, size);
}

}  // namespace loom::compiler::cpu
