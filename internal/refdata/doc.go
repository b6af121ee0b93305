// Package refdata finds the reference data of others that the project may
// not copy into its repository: the whole CHA test vectors (GPL-3.0), the
// broadcast PGN with clocks and the PGN files that break naive readers, the
// whole CHA-Solver rows (too large to copy; a sample is in
// unwinnable/testdata). 'make test' runs without them, on the project's own
// fixtures; the tests that read them need REFERENCE_DATA=DIR (an absolute
// path; make test-reference REFERENCE_DATA=DIR and make bench make it one).
//
// Without REFERENCE_DATA such a test skips, saying what it needs, and the
// summary line of make test counts it; with it, a missing file fails the
// test, so that a run that was asked for the reference data never checks
// less than it says.
package refdata
