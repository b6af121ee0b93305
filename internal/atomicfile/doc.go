// Package atomicfile writes a file whole or not at all: the one way Arbiter
// writes an export (PGN, PDF, a demo script) from the command line and the
// console alike.
//
// Write refuses a target that exists and is not a regular file — a symbolic
// link, a device such as /dev/null, a FIFO, a socket or a folder — so an
// export never writes through a link to somewhere else or into a pipe. It
// then writes the data to a temporary file in the target's folder, syncs it
// to disk, gives it the permissions and renames it over the target: a reader
// sees the old file or the new one, never half of one, and a failed write
// leaves nothing behind.
package atomicfile
