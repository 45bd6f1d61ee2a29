# lib.sh - helpers of the tests/debug/*.sh scripts (sourced, not run), on top of tests/tools/lib.sh.
. "$(dirname "${BASH_SOURCE[0]}")/../tools/lib.sh"

# axpy_inputs DIR N: DIR/x.bin holds the int32s 0..N-1, DIR/y.bin 1000..1000+N-1, so that the
# axpy kernel of kernels.cl computes out[i] = a * i + 1000 + i.
axpy_inputs() {
    python3 - "$1" "$2" <<'PY'
import struct, sys
d, n = sys.argv[1], int(sys.argv[2])
open(d + '/x.bin', 'wb').write(struct.pack('<%di' % n, *range(n)))
open(d + '/y.bin', 'wb').write(struct.pack('<%di' % n, *[1000 + i for i in range(n)]))
PY
}
