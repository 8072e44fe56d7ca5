"""Plain (non-atomic) reference counts for numba's arrays, in this process.

numba counts the references to every array it allocates with an atomic
increment and decrement (a `lock`ed instruction), so that threads running
compiled code at once may share arrays. Ours never do: a game runs in one
process (the runner's loky workers; Dask workers one process per core), and
the rules are compiled without `nogil`, so compiled code runs only while it
holds the GIL, one thread at a time, like the Python that frees its arrays.
The atomic instructions cost the compiled engines a third of their time
(Horsepower 2,640 -> 4,200 games/s at batch 4,096, docs/performance.md).

numba builds its runtime's increment and decrement once per process, the
first time compiled code is compiled or loaded; `use_plain_refcounts()` must
run before that (compiled_structs and chance.compiled call it when they are
imported, before any engine runs). The cached machine code calls the
runtime's functions by name, so the cache serves either kind. numba's own
switch for this (`nrtdynmod._disable_atomicity`) returns the count before the
decrement, so nothing is ever freed; this returns the count after, as the
atomic version does. If numba's runtime is already built, or a numba release
no longer has the function replaced here, counts stay atomic: slower, as
correct.
"""

from __future__ import annotations

from llvmlite import ir
from numba.core.runtime import nrt, nrtdynmod


def _plain_inc_dec(module: ir.Module, op: str, ordering: str) -> ir.Function:
    """numba's `nrt_atomic_add`/`nrt_atomic_sub` as a plain load, add or subtract, store; returns the new count."""
    word = nrtdynmod._word_type
    fn = ir.Function(module, ir.FunctionType(word, [word.as_pointer()]), name=f"nrt_atomic_{op}")
    [count] = fn.args
    builder = ir.IRBuilder(fn.append_basic_block())
    new = getattr(builder, op)(builder.load(count), ir.Constant(word, 1))
    builder.store(new, count)
    builder.ret(new)
    return fn


def use_plain_refcounts() -> bool:
    """Plain reference counts from here on in this process; False when numba's runtime was built already."""
    if getattr(nrtdynmod, "_define_atomic_inc_dec", None) is _plain_inc_dec:
        return True
    if nrt.rtsys._init or not hasattr(nrtdynmod, "_define_atomic_inc_dec") or not hasattr(nrtdynmod, "_word_type"):
        return False
    nrtdynmod._define_atomic_inc_dec = _plain_inc_dec
    return True


def atomic_refcounts() -> bool:
    """Whether this process's numba runtime (built by now) counts references with atomic instructions."""
    return "atomicrmw" in nrt.rtsys.library.get_llvm_str()
