"""Family modules of the ISA table generator (see tools/gen_isa.py)."""
from . import scalar, vop, vop3, mem, vop_rdna, vop3_rdna, vopd_rdna, mem_rdna, image_rdna, vinterp_rdna
from . import asm_alias

# asm_alias last: its candidates include the ops the other families registered
FAMILIES = (scalar, vop, vop3, mem, vop_rdna, vop3_rdna, vopd_rdna, mem_rdna, image_rdna, vinterp_rdna,
            asm_alias)
