/*
 * bcryptprimitives.dll for Wine 8.0 (Debian 12), which ships none.
 *
 * Go >= 1.22 Windows programs load ProcessPrng from bcryptprimitives.dll at
 * start-up and stop with "bcryptprimitives.dll not found" without it. This
 * stand-in, built by scripts/wine-test.sh with MinGW-w64 into the test-only
 * Wine prefix (never shipped), answers ProcessPrng from RtlGenRandom
 * (advapi32's SystemFunction036), which Wine has.
 */
#include <windows.h>
#define SystemFunction036 NTAPI SystemFunction036
#include <ntsecapi.h>
#undef SystemFunction036

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T n)
{
	while (n > 0) {
		ULONG k = n > 0x40000000 ? 0x40000000 : (ULONG)n;
		if (!RtlGenRandom(data, k))
			return FALSE;
		data += k;
		n -= k;
	}
	return TRUE;
}
