def label(n: int) -> str:
    return n
