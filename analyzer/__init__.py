"""halfsuit: exact deduction for recorded games of Literature / Fish."""

__version__ = "0.1.0"
