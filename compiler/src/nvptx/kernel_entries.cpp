#include "kernel_entries.h"

#include "cpu/local_memory_lowering.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "loom/compiler/nvptx_launch_abi.h"
#include "module_passes.h"
#include "work_item_functions.h"

namespace loom::compiler::nvptx {

namespace {

constexpr unsigned kSharedAddressSpace = 3;
constexpr unsigned kSharedAlignment = 128;
// Kernels larger than this (instructions, with what they call, as prepareForInlining left them)
// get no entry for whole groups: the range check it saves is lost in their run time, while a
// second copy doubles their share of the compile and of the driver's JIT.
constexpr size_t kWholeGroupsEntryMaxInstructions = 500;

struct Entry {
  llvm::Function* function;
  llvm::Value* implicit;     // the ImplicitLaunchParameters parameter
  llvm::Instruction* shared;  // stands for dynamic shared memory until all is laid out
  bool wholeGroups;           // the entry for whole groups at global offset 0
  size_t kernelIndex;
};

// Instructions of the kernel and of every function it calls, directly or not.
size_t instructionsReachedFrom(llvm::Function& kernel) {
  std::vector<llvm::Function*> pending{&kernel};
  llvm::SmallPtrSet<llvm::Function*, 32> seen{&kernel};
  size_t count = 0;
  while (!pending.empty()) {
    llvm::Function* function = pending.back();
    pending.pop_back();
    count += function->getInstructionCount();
    for (llvm::Instruction& instruction : llvm::instructions(*function)) {
      auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
      llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
      if (callee && !callee->isDeclaration() && seen.insert(callee).second) pending.push_back(callee);
    }
  }
  return count;
}

llvm::Type* sharedBytePointer(llvm::LLVMContext& context) { return llvm::Type::getInt8PtrTy(context, kSharedAddressSpace); }

// `extern .shared .align 128 .b8 dynamic_shared[]`, as bytes. Made last: lowering the static
// __local variables would count it as one of them.
llvm::Constant* dynamicSharedMemory(llvm::Module& module) {
  llvm::LLVMContext& context = module.getContext();
  auto* type = llvm::ArrayType::get(llvm::Type::getInt8Ty(context), 0);
  auto* array = new llvm::GlobalVariable(module, type, false, llvm::GlobalValue::ExternalLinkage, nullptr, "dynamic_shared",
                                         nullptr, llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
  array->setAlignment(llvm::Align(kSharedAlignment));
  return llvm::ConstantExpr::getBitCast(array, sharedBytePointer(context));
}

llvm::Type* parameterType(const llvm::Argument& argument, const KernelArgument& described) {
  if (described.kind == ArgumentKind::LocalPointer)
    return llvm::Type::getIntNTy(argument.getContext(), kLocalPointerParameterSize * 8);
  return argument.getType();
}

llvm::Function* declareEntry(llvm::Module& module, llvm::Function& kernel, const KernelDescriptor& descriptor,
                             const std::string& name) {
  llvm::LLVMContext& context = module.getContext();
  auto* implicitType = llvm::ArrayType::get(llvm::Type::getInt8Ty(context), sizeof(ImplicitLaunchParameters));
  std::vector<llvm::Type*> parameters;
  for (const llvm::Argument& argument : kernel.args())
    parameters.push_back(parameterType(argument, descriptor.arguments[argument.getArgNo()]));
  parameters.push_back(implicitType->getPointerTo());
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), parameters, false);
  auto* entry = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, name, module);
  entry->addFnAttr(llvm::Attribute::NoUnwind);
  // Structs by value arrive as .param byte arrays, as byval pointers do for the NVPTX backend.
  for (const llvm::Argument& argument : kernel.args()) {
    if (!argument.hasByValAttr()) continue;
    entry->addParamAttr(argument.getArgNo(), llvm::Attribute::getWithByValType(context, argument.getParamByValType()));
    if (llvm::MaybeAlign alignment = argument.getParamAlign())
      entry->addParamAttr(argument.getArgNo(), llvm::Attribute::getWithAlignment(context, *alignment));
  }
  const unsigned implicit = static_cast<unsigned>(kernel.arg_size());
  entry->addParamAttr(implicit, llvm::Attribute::getWithByValType(context, implicitType));
  entry->addParamAttr(implicit, llvm::Attribute::getWithAlignment(context, llvm::Align(alignof(ImplicitLaunchParameters))));
  entry->addParamAttr(implicit, llvm::Attribute::ReadOnly);
  return entry;
}

// Where a GPU that launches kernels early waits for the kernels before (cuda_dependent_launch.h).
// The memory clobber keeps every memory access of the entry after it.
void markGridDependencyWait(llvm::IRBuilder<>& builder) {
  auto* type = llvm::FunctionType::get(builder.getVoidTy(), false);
  builder.CreateCall(llvm::InlineAsm::get(type, kGridDependencyWaitMarker, "~{memory}", /*hasSideEffects=*/true));
}

// The entry converts its parameters in block "entry", then calls the kernel if the thread is a
// work-item (always, in the entry for whole groups): the static __local variables' addresses go
// at the end of "entry", which dominates all the kernel's code.
Entry createEntry(llvm::Module& module, llvm::Function& kernel, const KernelDescriptor& descriptor, bool wholeGroups,
                  size_t kernelIndex) {
  llvm::Function* entry = declareEntry(module, kernel, descriptor,
                                       wholeGroups ? descriptor.name + kWholeGroupsEntrySuffix : descriptor.name);
  llvm::LLVMContext& context = module.getContext();
  auto* setup = llvm::BasicBlock::Create(context, "entry", entry);
  auto* body = llvm::BasicBlock::Create(context, "kernel", entry);
  auto* done = llvm::BasicBlock::Create(context, "done", entry);
  llvm::Type* bytes = sharedBytePointer(context);
  auto* shared = new llvm::BitCastInst(llvm::PoisonValue::get(bytes), bytes, "shared", setup);
  llvm::IRBuilder<> builder(setup);
  markGridDependencyWait(builder);
  std::vector<llvm::Value*> arguments;
  for (llvm::Argument& argument : kernel.args()) {
    llvm::Value* parameter = entry->getArg(argument.getArgNo());
    if (descriptor.arguments[argument.getArgNo()].kind == ArgumentKind::LocalPointer) {
      llvm::Value* offset = builder.CreateZExt(parameter, builder.getInt64Ty());
      parameter = builder.CreatePointerCast(builder.CreateInBoundsGEP(builder.getInt8Ty(), shared, offset), argument.getType());
    }
    arguments.push_back(parameter);
  }
  llvm::Value* implicit = entry->getArg(static_cast<unsigned>(kernel.arg_size()));
  if (wholeGroups)
    builder.CreateBr(body);
  else
    builder.CreateCondBr(isWorkItem(builder, implicit), body, done);
  builder.SetInsertPoint(body);
  llvm::CallInst* call = builder.CreateCall(&kernel, arguments);
  call->setAttributes(kernel.getAttributes());
  builder.CreateBr(done);
  builder.SetInsertPoint(done);
  builder.CreateRetVoid();
  return {entry, implicit, shared, wholeGroups, kernelIndex};
}

// Work-item functions need the entry's parameters, so nothing the kernels call stays a function
// of its own (OpenCL C has no recursion).
void inlineIntoEntries(llvm::Module& module, const std::vector<Entry>& entries) {
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    function.removeFnAttr(llvm::Attribute::NoInline);
    function.removeFnAttr(llvm::Attribute::OptimizeNone);
    function.addFnAttr(llvm::Attribute::AlwaysInline);
  }
  for (const Entry& entry : entries) entry.function->removeFnAttr(llvm::Attribute::AlwaysInline);
  runModulePipeline(module, nullptr, [](llvm::PassBuilder&) {
    llvm::ModulePassManager manager;
    manager.addPass(llvm::AlwaysInlinerPass(false));
    return manager;
  });
}

void annotate(llvm::Module& module, llvm::Function& entry, const KernelDescriptor& descriptor) {
  llvm::LLVMContext& context = module.getContext();
  llvm::NamedMDNode* annotations = module.getOrInsertNamedMetadata("nvvm.annotations");
  auto add = [&](const char* key, uint32_t value) {
    llvm::Metadata* operands[] = {llvm::ValueAsMetadata::get(&entry), llvm::MDString::get(context, key),
                                  llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), value))};
    annotations->addOperand(llvm::MDNode::get(context, operands));
  };
  add("kernel", 1);
  if (descriptor.requiredWorkGroupSize[0] == 0) return;
  add("reqntidx", descriptor.requiredWorkGroupSize[0]);
  add("reqntidy", descriptor.requiredWorkGroupSize[1]);
  add("reqntidz", descriptor.requiredWorkGroupSize[2]);
}

}  // namespace

llvm::Error buildKernelEntries(llvm::Module& module, std::vector<KernelDescriptor>& kernels) {
  std::vector<Entry> entries;
  for (size_t index = 0; index < kernels.size(); ++index) {
    const KernelDescriptor& descriptor = kernels[index];
    llvm::Function* kernel = module.getFunction(descriptor.name);
    if (!kernel) return llvm::createStringError(llvm::inconvertibleErrorCode(), "kernel '%s' vanished", descriptor.name.c_str());
    kernel->setName(descriptor.name + ".kernel");
    kernel->setLinkage(llvm::GlobalValue::InternalLinkage);
    entries.push_back(createEntry(module, *kernel, descriptor, false, index));
    if (instructionsReachedFrom(*kernel) <= kWholeGroupsEntryMaxInstructions)
      entries.push_back(createEntry(module, *kernel, descriptor, true, index));
  }
  inlineIntoEntries(module, entries);
  for (const Entry& built : entries) {
    llvm::Function& entry = *built.function;
    KernelDescriptor& descriptor = kernels[built.kernelIndex];  // both entries of a kernel compute the same
    descriptor.hasBarriers = lowerWorkItemFunctions(entry, built.implicit, built.wholeGroups);
    descriptor.staticLocalMemorySize = cpu::lowerLocalVariables(entry, entry.getEntryBlock(), built.shared);
    annotate(module, entry, descriptor);
  }
  llvm::Constant* shared = dynamicSharedMemory(module);
  for (const Entry& entry : entries) {
    entry.shared->replaceAllUsesWith(shared);
    entry.shared->eraseFromParent();
  }
  return llvm::Error::success();
}

}  // namespace loom::compiler::nvptx
