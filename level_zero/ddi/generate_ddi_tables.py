#!/usr/bin/env python3
"""Generates the Level Zero DDI table exports of libze_loom from the installed *_ddi.h headers.

Every table the headers declare is filled completely. An entry binds to the function of the same
name in namespace loom::l0 when the frontend declares one (qualified lookup prefers a direct
member over the generated fallback that namespace loom::l0::unsupported provides); otherwise to
that fallback, which returns ZE_RESULT_ERROR_UNSUPPORTED_FEATURE and says so under
PrintDebugMessages.

Tables point at wrappers in namespace loom::l0::checked, which check every handle argument
(level_zero/handle/handle.h, checkedCall) before they call the entry point. The wrapper of each
core function that has a slot in ze_callbacks_t (ze_api.h, the API tracing callbacks) also runs
the enabled tracers' callbacks around the call (level_zero/tools/api_tracing.h, tracedCall),
with the function's ze_xxx_params_t pointing at its arguments.

Usage: generate_ddi_tables.py OUTPUT ZE_API_HEADER DDI_HEADER...
"""
import re
import sys

FUNCTION_TYPE = re.compile(
    r"typedef\s+ze_result_t\s*\(ZE_APICALL\s*\*\s*(\w+)_pfn(\w+)_t\)\s*\(([^;]*?)\)\s*;", re.S)
TABLE = re.compile(r"typedef\s+struct\s+_(\w+)_dditable_t\s*\{(.*?)\}\s*\w+;", re.S)
MEMBER = re.compile(r"(\w+)_pfn(\w+)_t\s+(pfn\w+)\s*;")
GETTER = re.compile(
    r"ZE_DLLEXPORT\s+ze_result_t\s+ZE_APICALL\s+(\w+ProcAddrTable)\s*\(\s*ze_api_version_t\s+\w+\s*,"
    r"\s*(\w+)_dditable_t\s*\*")

# The tracing callbacks of ze_api.h: the slot groups of ze_callbacks_t, each group's slots, each
# slot's callback type, and the parameter structure each callback type receives.
CALLBACK_CONTAINER = re.compile(r"typedef\s+struct\s+_ze_callbacks_t\s*\{(.*?)\}\s*\w+;", re.S)
CALLBACK_GROUP = re.compile(r"(ze_\w+_callbacks_t)\s+(\w+)\s*;")
CALLBACK_TABLE = re.compile(r"typedef\s+struct\s+_(ze_\w+_callbacks_t)\s*\{(.*?)\}\s*\w+;", re.S)
CALLBACK_SLOT = re.compile(r"ze_pfn(\w+)Cb_t\s+(pfn\w+Cb)\s*;")
CALLBACK_TYPE = re.compile(r"typedef\s+void\s*\(ZE_APICALL\s*\*\s*ze_pfn(\w+)Cb_t\)\s*\(\s*(ze_\w+_params_t)\s*\*")
PARAMS = re.compile(r"typedef\s+struct\s+_(ze_\w+_params_t)\s*\{(.*?)\}\s*\w+;", re.S)


class Traced:
    """One core function's place among the tracing callbacks."""

    def __init__(self, group, table, slot, params, param_count):
        self.group, self.table, self.slot, self.params, self.param_count = group, table, slot, params, param_count


def parse_callbacks(api_text):
    """Every slot of ze_callbacks_t as {function name: Traced}, in the order of the structure."""
    params = {name: body.count(";") for name, body in PARAMS.findall(api_text)}
    params_of = dict(CALLBACK_TYPE.findall(api_text))
    tables = {name: CALLBACK_SLOT.findall(body) for name, body in CALLBACK_TABLE.findall(api_text)}
    container = CALLBACK_CONTAINER.search(api_text)
    if container is None:
        sys.exit("generate_ddi_tables.py: no ze_callbacks_t in the API header")
    traced = {}
    for table, group in CALLBACK_GROUP.findall(container.group(1)):
        for callback, slot in tables[table]:
            traced["ze" + callback] = Traced(group, table, slot, params_of[callback], params[params_of[callback]])
    return traced


def parse(header_text):
    functions = {}
    for prefix, name, params in FUNCTION_TYPE.findall(header_text):
        if name.startswith("Get") and name.endswith("ProcAddrTable"):
            continue
        types = [p.strip() for p in params.split(",") if p.strip() and p.strip() != "void"]
        functions[prefix + name] = types
    tables = {}
    for table_name, body in TABLE.findall(header_text):
        tables[table_name] = [(prefix + name, member) for prefix, name, member in MEMBER.findall(body)]
    getters = GETTER.findall(header_text)
    return functions, tables, getters


def fallback(name, types):
    params = ", ".join(f"{t}" for t in types)
    return (f"ze_result_t ZE_APICALL {name}({params}) {{ return unsupportedFeature(\"{name}\"); }}")


def checked(name, types, traced):
    params = ", ".join(f"{t} a{i}" for i, t in enumerate(types))
    arguments = "".join(f", a{i}" for i in range(len(types)))
    call = f"checkedCall(\"{name}\", &loom::l0::{name}{arguments})"
    if traced is None:
        return f"ze_result_t ZE_APICALL {name}({params}) {{ return {call}; }}"
    if traced.param_count != len(types):
        sys.exit(f"generate_ddi_tables.py: {traced.params} has {traced.param_count} members, {name} {len(types)} parameters")
    # The entry takes the arguments by value, so that the path without tracers keeps them in
    # registers; tracedCall keeps its own copies, which the prologues may change.
    values = "".join(f", a{i}" for i in range(len(types)))
    return "\n".join([
        f"ze_result_t ZE_APICALL {name}({params}) {{",
        f"  const auto entry = []({params}) {{ return {call}; }};",
        f"  if (!ApiTracing::anyEnabled()) [[likely]] return entry({values[2:]});",
        f"  return tracedCall<&ze_callbacks_t::{traced.group}, &{traced.table}::{traced.slot}, {traced.params}>(entry{values});",
        "}"])


def getter(getter_name, table_name, entries):
    lines = [f'extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL {getter_name}(ze_api_version_t version, {table_name}_dditable_t* table) {{',
             "  if (table == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;",
             "  if (ZE_MAJOR_VERSION(version) != ZE_MAJOR_VERSION(ZE_API_VERSION_CURRENT)) return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;"]
    for function, member in entries:
        lines.append(f"  table->{member} = &loom::l0::checked::{function};")
    lines.append("  return ZE_RESULT_SUCCESS;")
    lines.append("}")
    return "\n".join(lines)


def main():
    output, api_header, headers = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(api_header) as f:
        traced = parse_callbacks(re.sub(r"//[^\n]*", "", f.read()))
    functions, tables, getters = {}, {}, []
    for header in headers:
        with open(header) as f:
            text = re.sub(r"//[^\n]*", "", f.read())
        more_functions, more_tables, more_getters = parse(text)
        functions.update(more_functions)
        tables.update(more_tables)
        getters.extend(more_getters)
    untraceable = sorted(set(traced) - set(functions))
    if untraceable:
        sys.exit(f"generate_ddi_tables.py: ze_callbacks_t has slots for functions no DDI table holds: {untraceable}")
    out = ["// Generated by level_zero/ddi/generate_ddi_tables.py from the installed Level Zero headers. Do not edit.",
           "#include <level_zero/ze_ddi.h>",
           "#include <level_zero/zet_ddi.h>",
           "#include <level_zero/zes_ddi.h>",
           '#include "level_zero/api.h"',
           '#include "level_zero/ddi/unsupported_feature.h"',
           '#include "level_zero/handle/handle.h"',
           '#include "level_zero/tools/api_tracing.h"',
           "",
           "namespace loom::l0::unsupported {"]
    out += [fallback(name, types) for name, types in sorted(functions.items())]
    out += ["}  // namespace loom::l0::unsupported", "",
            "namespace loom::l0 {", "using namespace unsupported;", "}  // namespace loom::l0", "",
            "namespace loom::l0::checked {"]
    out += [checked(name, types, traced.get(name)) for name, types in sorted(functions.items())]
    out += ["}  // namespace loom::l0::checked", ""]
    for getter_name, table_name in getters:
        out.append(getter(getter_name, table_name, tables[table_name]))
        out.append("")
    with open(output, "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
