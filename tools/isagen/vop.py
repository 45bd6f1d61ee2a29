"""vop family tables (placeholder until the family generator lands)."""


def generate(ctx):
    return {}
