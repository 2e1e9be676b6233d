#include "printf_vectors.h"

#include <functional>
#include <string>
#include <vector>

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

namespace loom::compiler {

namespace {

// One conversion specification: "%" flags width precision, then the optional vector size,
// length modifier and conversion character.
struct Specification {
  std::string head;    // "%" with flags, width and precision
  int vectorSize = 0;  // 0: not a vector
  std::string length;  // hh, h, hl, l...
  char conversion = 0;
  int starArguments = 0;  // '*' width and precision take arguments of their own
};

// Parses the specification at format[at] == '%'; `at` ends past it.
Specification parse(llvm::StringRef format, size_t& at) {
  Specification spec;
  const size_t start = at++;
  auto skip = [&](llvm::StringRef characters) {
    while (at < format.size() && characters.contains(format[at])) ++at;
  };
  skip("-+ #0");
  if (at < format.size() && format[at] == '*') ++at, ++spec.starArguments;
  skip("0123456789");
  if (at < format.size() && format[at] == '.') {
    ++at;
    if (at < format.size() && format[at] == '*') ++at, ++spec.starArguments;
    skip("0123456789");
  }
  spec.head = format.substr(start, at - start).str();
  if (at < format.size() && format[at] == 'v') {
    const size_t digits = ++at;
    skip("0123456789");
    format.substr(digits, at - digits).getAsInteger(10, spec.vectorSize);
  }
  const size_t length = at;
  skip("hlLjzt");
  spec.length = format.substr(length, at - length).str();
  if (at < format.size()) spec.conversion = format[at++];
  return spec;
}

// A vector component as C's printf takes it, with the length modifier that says so.
llvm::Value* promote(llvm::IRBuilder<>& builder, llvm::Value* component, const Specification& spec, std::string& length) {
  llvm::Type* type = component->getType();
  if (type->isFloatingPointTy()) {
    length.clear();  // %f and friends take a double
    return builder.CreateFPExt(component, builder.getDoubleTy());
  }
  const unsigned bits = type->getIntegerBitWidth();
  const bool isSigned = spec.conversion == 'd' || spec.conversion == 'i';
  length = bits == 8 ? "hh" : bits == 16 ? "h" : bits == 32 ? "" : "l";
  llvm::Type* promoted = bits == 64 ? builder.getInt64Ty() : builder.getInt32Ty();
  return isSigned ? builder.CreateSExtOrTrunc(component, promoted) : builder.CreateZExtOrTrunc(component, promoted);
}

// Rewrites one conversion: appends its text and arguments to the new call's; false when it keeps
// the conversion as written.
using ConversionRewrite = std::function<bool(llvm::IRBuilder<>& builder, const Specification& spec, llvm::Value* argument,
                                             std::string& newFormat, std::vector<llvm::Value*>& arguments)>;

// The rewritten format and arguments of one call; false when `rewrite` changed no conversion.
bool rewriteConversions(llvm::CallInst& call, llvm::StringRef format, const ConversionRewrite& rewrite, std::string& newFormat,
                        std::vector<llvm::Value*>& arguments) {
  llvm::IRBuilder<> builder(&call);
  unsigned next = 1;  // operand 0 is the format
  bool changed = false;
  for (size_t at = 0; at < format.size();) {
    if (format[at] != '%' || (at + 1 < format.size() && format[at + 1] == '%')) {
      const size_t literal = format[at] == '%' ? 2 : 1;
      newFormat += format.substr(at, literal).str();
      at += literal;
      continue;
    }
    const size_t start = at;
    const Specification spec = parse(format, at);
    for (int i = 0; i < spec.starArguments && next < call.arg_size(); ++i) arguments.push_back(call.getArgOperand(next++));
    if (next >= call.arg_size()) {  // more conversions than arguments: left as written
      newFormat += format.substr(start, at - start).str();
      continue;
    }
    llvm::Value* argument = call.getArgOperand(next++);
    if (rewrite(builder, spec, argument, newFormat, arguments)) {
      changed = true;
      continue;
    }
    newFormat += format.substr(start, at - start).str();
    arguments.push_back(argument);
  }
  for (; next < call.arg_size(); ++next) arguments.push_back(call.getArgOperand(next));
  return changed;
}

// A vector conversion as one conversion per component, separated by commas.
bool expandVector(llvm::IRBuilder<>& builder, const Specification& spec, llvm::Value* argument, std::string& newFormat,
                  std::vector<llvm::Value*>& arguments) {
  auto* vectorType = llvm::dyn_cast<llvm::FixedVectorType>(argument->getType());
  if (!spec.vectorSize || !vectorType) return false;
  const unsigned components = std::min<unsigned>(spec.vectorSize, vectorType->getNumElements());
  for (unsigned i = 0; i < components; ++i) {
    std::string length;
    arguments.push_back(promote(builder, builder.CreateExtractElement(argument, i), spec, length));
    newFormat += (i ? "," : "") + spec.head + length + spec.conversion;
  }
  return true;
}

// An integer conversion with length hh as one without: the argument narrowed to 8 bits and
// promoted again, signed for d and i, as C's printf converts it.
bool narrowCharConversion(llvm::IRBuilder<>& builder, const Specification& spec, llvm::Value* argument, std::string& newFormat,
                          std::vector<llvm::Value*>& arguments) {
  if (spec.length != "hh" || spec.vectorSize || !llvm::StringRef("diouxX").contains(spec.conversion) ||
      !argument->getType()->isIntegerTy())
    return false;
  llvm::Value* narrowed = builder.CreateTrunc(argument, builder.getInt8Ty());
  const bool isSigned = spec.conversion == 'd' || spec.conversion == 'i';
  arguments.push_back(isSigned ? builder.CreateSExt(narrowed, builder.getInt32Ty()) : builder.CreateZExt(narrowed, builder.getInt32Ty()));
  newFormat += spec.head + spec.conversion;
  return true;
}

// The format as a constant string in the original's address space.
llvm::Constant* formatConstant(llvm::Module& module, llvm::Type* pointerType, const std::string& text) {
  llvm::Constant* initializer = llvm::ConstantDataArray::getString(module.getContext(), text);
  auto* global = new llvm::GlobalVariable(module, initializer->getType(), true, llvm::GlobalValue::PrivateLinkage, initializer,
                                          ".printf.format", nullptr, llvm::GlobalValue::NotThreadLocal,
                                          pointerType->getPointerAddressSpace());
  global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  return llvm::ConstantExpr::getPointerCast(global, pointerType);
}

// Each printf call with a constant format whose conversions `rewrite` changes, replaced by one
// with the rewritten format and arguments.
void rewritePrintfCalls(llvm::Module& module, const ConversionRewrite& rewrite) {
  llvm::Function* printf = module.getFunction("printf");
  if (!printf) return;
  std::vector<llvm::CallInst*> calls;
  for (llvm::User* user : printf->users())
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(user); call && call->getCalledFunction() == printf) calls.push_back(call);
  for (llvm::CallInst* call : calls) {
    llvm::StringRef format;
    if (call->arg_size() == 0 || !llvm::getConstantStringInfo(call->getArgOperand(0), format)) continue;
    std::string newFormat;
    std::vector<llvm::Value*> arguments;
    if (!rewriteConversions(*call, format, rewrite, newFormat, arguments)) continue;
    arguments.insert(arguments.begin(), formatConstant(module, call->getArgOperand(0)->getType(), newFormat));
    llvm::CallInst* rewritten = llvm::CallInst::Create(printf->getFunctionType(), printf, arguments, "", call);
    rewritten->setCallingConv(call->getCallingConv());
    call->replaceAllUsesWith(rewritten);
    call->eraseFromParent();
  }
}

}  // namespace

void expandPrintfVectors(llvm::Module& module) { rewritePrintfCalls(module, expandVector); }

void narrowCharConversions(llvm::Module& module) { rewritePrintfCalls(module, narrowCharConversion); }

void keepPrintfCalls(llvm::Module& module) {
  llvm::Function* printf = module.getFunction("printf");
  if (!printf) return;
  for (llvm::User* user : printf->users())
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(user); call && call->getCalledFunction() == printf)
      call->addFnAttr(llvm::Attribute::NoBuiltin);
}

}  // namespace loom::compiler
