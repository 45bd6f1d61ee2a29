"""Per-op metadata table: src/isa/gen/opmeta.inc.

One row per op id of ops.inc, as an X-macro:

    ISA_META(V_ADD_F32, v_add_f32, ...)

The first two fields are the op's enum suffix and its lower-case mnemonic spelled as a C token:
src/isa/isa.h turns the pair into ISA_OPL_v_add_f32 = ISA_OP_V_ADD_F32, so hand-written tables
(the handler rows of src/exec/) name every op by its literal mnemonic and `grep -rnw v_add_f32
src/exec` lands on the row.  Consumers take the row with `...` so fields can be appended.
"""


def generate(ops, tables):
    """ops: the base mnemonics (lower case); tables: {file name: generated text} of the families
    (the decoder tables), from which the per-op facts are read."""
    out = ["/* Per-op metadata, one row per op id (tools/isagen/meta.py):\n"
           " * ISA_META(ENUM, mnemonic). */\n"]
    for n in sorted(ops):
        out.append("ISA_META(%s, %s)\n" % (n.upper(), n))
    return "".join(out)
