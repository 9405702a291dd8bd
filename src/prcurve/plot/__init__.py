"""Drawing for prcurve: Display objects that take computed results and draw them.

Nothing here computes statistics; matplotlib is imported only when something is drawn.
"""

__all__: list[str] = []
