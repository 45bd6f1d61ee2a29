/* linux/kfd_ioctl.h includes <drm/drm.h>; Debian ships that header only in libdrm-dev, as
 * <libdrm/drm.h>.  The vgpu objects are compiled with -Isrc/vgpu/shim so the include resolves. */
#include <libdrm/drm.h>
