"""Resource limits a sandboxed process sets on itself (standard library only: this file is also
copied into the grading run's own folder, :mod:`.api_tree`)."""


def set_limits(memory_mb: int, cpu_seconds: int, processes: int, file_mb: int, open_files: int) -> None:
    """Resource limits of this process and its children, set from inside the sandbox
    (``processes`` 0: left alone, as without a sandbox, where the count would be the user's)."""
    import resource

    limits = [(resource.RLIMIT_AS, memory_mb * 1024 * 1024), (resource.RLIMIT_CPU, cpu_seconds),
              (resource.RLIMIT_FSIZE, file_mb * 1024 * 1024), (resource.RLIMIT_NOFILE, open_files),
              (resource.RLIMIT_CORE, 0)]
    if processes:
        limits.append((resource.RLIMIT_NPROC, processes))
    for which, value in limits:
        _soft, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(which, (value, value))
