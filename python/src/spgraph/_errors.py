"""spgraph's exceptions and warnings (the native module raises these too)."""


class Error(ValueError):
    """A failure spgraph reports: the message is the one spgraph's command-line apps print
    after ``NAME: error:`` (what went wrong and where: the file and line for input, the call
    for the GPU, the limit for memory)."""


class ParseError(Error):
    """A graph file that cannot be read: ``FILE:LINE: reason``."""


class ResourceError(Error, MemoryError):
    """A graph or product that does not fit a limit (GPU memory, ``SPGRAPH_GPU_MEMORY_LIMIT``,
    a memory budget); the message names the limit. ``backend="cpu"`` runs it on the CPU."""


class DTypeError(Error, TypeError):
    """An input whose element type spgraph cannot read as graph weights (complex numbers,
    strings, objects)."""


class ConvergenceWarning(RuntimeWarning):
    """An iterative algorithm stopped at its iteration limit before meeting its stopping rule
    (PageRank's tolerance, MCL's chaos); the result of the last iteration is returned."""
