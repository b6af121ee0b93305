// Package notices writes THIRD_PARTY_NOTICES, the file that ships beside
// the program with the licences of everything it includes that the project
// did not write.
//
// [Write] asks the Go tool what the program is built from, for every
// platform a release or a build from source targets (linux/amd64,
// windows/amd64, darwin/amd64, darwin/arm64): 'go list -deps -json' of the
// main package. From that it takes
//
//   - every module of go.mod that is compiled in, with its version and the
//     licence files of its module cache directory: those at the module's
//     root and in the folders between it and each package used (a vendored
//     library inside a module often carries its own), those beside files
//     the packages embed, and, for a package that compiles C code, those in
//     its subfolders (the C library's own, as GLFW's in go-gl/glfw);
//   - the Go standard library and runtime, whose licence is in GOROOT;
//   - every font the program embeds (.ttf, .otf), the project's own and its
//     modules', with the licence files beside them.
//
// Each licence text is written in full, under a name the package guesses
// from its words (MIT, BSD-3-Clause, Apache-2.0 …; "see the text" when it
// cannot tell). The output depends only on go.mod, go.sum and the module
// cache, so the test TestThirdPartyNoticesAreCurrent compares it with the
// committed file and fails when a module changes without the file being
// regenerated ('make notices', which runs that test with -update).
package notices
