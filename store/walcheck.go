package store

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"os"
)

// The -wal's stat (WALChanged) does not tell bytes written into it from
// the DB's own commits once the DB wrote since it last looked: the size
// stays, and the times move with the DB's own writes (which do not ask
// for them: stamp.go). SQLite's
// own bookkeeping does not: every frame of the write-ahead log carries a
// checksum that runs on from the frame before it over the frame's header
// and page, and the wal-index (the -shm file) keeps, for the frames
// committed so far (mxFrame), the log's salts and the checksum of the last
// of them. walIntact walks the committed frames and computes the chain
// again, as SQLite's recovery does: a byte changed in any of them breaks
// it. WALChanged looks so only when the DB wrote since it last looked
// (docs/performance.md, "The console's watch for edits"): an edit with no
// own write since changes the stat's times, which are looked at always.

const (
	walFrameHeaderSize = 24
	walMagicLE         = 0x377f0682
	walMagicBE         = 0x377f0683
	shmHeaderSize      = 48 // one copy of WalIndexHdr; the -shm holds two
)

// walIndex is the part of the wal-index header walIntact compares with.
type walIndex struct {
	mxFrame    uint32
	frameCksum [2]uint32
	salt       [2]uint32
	pageSize   int
}

// readWALIndex reads the wal-index header from the -shm file, through the
// descriptor the process keeps for it (heldShm: never opened and closed
// here, which would drop SQLite's locks on it): both copies (SQLite writes
// one, then the other) must agree; ok is false when they do not (a commit
// under way) or there is none.
func readWALIndex(path string) (walIndex, bool) {
	f := heldShm(path)
	if f == nil {
		return walIndex{}, false
	}
	var b [2 * shmHeaderSize]byte
	if _, err := f.ReadAt(b[:], 0); err != nil {
		return walIndex{}, false
	}
	if !bytes.Equal(b[:shmHeaderSize], b[shmHeaderSize:]) || b[12] == 0 { // isInit
		return walIndex{}, false
	}
	le := binary.LittleEndian // the wal-index is in the machine's order (amd64, arm64: little)
	sz := int(le.Uint16(b[14:]))
	if sz == 1 {
		sz = 65536
	}
	// the salts are the log header's bytes as they are (big-endian)
	be := binary.BigEndian
	return walIndex{mxFrame: le.Uint32(b[16:]), frameCksum: [2]uint32{le.Uint32(b[24:]), le.Uint32(b[28:])},
		salt: [2]uint32{be.Uint32(b[32:]), be.Uint32(b[36:])}, pageSize: sz}, true
}

// walChecksum continues SQLite's WAL checksum (s0, s1) over b, whose
// length is a multiple of 8, reading its words big-endian (big) or
// little-endian (the order the log's magic names; each order a loop of
// its own, the words read inline: through binary.ByteOrder the walk took
// three times as long).
func walChecksum(s0, s1 uint32, b []byte, big bool) (uint32, uint32) {
	if big {
		for ; len(b) >= 8; b = b[8:] {
			s0 += binary.BigEndian.Uint32(b) + s1
			s1 += binary.BigEndian.Uint32(b[4:]) + s0
		}
		return s0, s1
	}
	for ; len(b) >= 8; b = b[8:] {
		s0 += binary.LittleEndian.Uint32(b) + s1
		s1 += binary.LittleEndian.Uint32(b[4:]) + s0
	}
	return s0, s1
}

// walIntact reports whether the committed frames of the record's
// write-ahead log hold what their checksums say; sure is false when it
// cannot tell (no log, no wal-index, a log whose header is not the one
// the wal-index was written for, a commit or a restart of the log under
// way three times running): WALChanged then says the log changed, and the
// watch checks the record whole. path is the record's name (its place in
// the process's register, for the wal-index held open), side where its
// -wal is (sideFiles).
func walIntact(path, side string) (intact, sure bool) {
	for try := 0; try < 3; try++ {
		idx, ok := readWALIndex(path)
		if !ok {
			continue
		}
		intact, sure := walFramesIntact(side, idx)
		if sure {
			if !intact {
				// a checkpoint may have restarted the log meanwhile:
				// said broken only while the wal-index stayed
				if again, ok := readWALIndex(path); ok && again != idx {
					continue
				}
			}
			return intact, true
		}
	}
	return true, false
}

// wroteFor reports whether hdr, a -wal's header, is the one the
// wal-index idx was written for: its salts and page size.
func (idx walIndex) wroteFor(hdr []byte) bool {
	be := binary.BigEndian
	return be.Uint32(hdr[16:]) == idx.salt[0] && be.Uint32(hdr[20:]) == idx.salt[1] && int(be.Uint32(hdr[8:])) == idx.pageSize
}

// walFramesIntact walks the frames idx names committed in the -wal beside
// side (sideFiles); sure is false when the log's header is not the one idx
// was written for (a restart).
func walFramesIntact(side string, idx walIndex) (intact, sure bool) {
	chained, atIndex, sure := walFramesChain(side, idx)
	return chained && atIndex, sure
}

// walFramesChain walks the frames idx names committed in the -wal beside
// side: chained is whether each holds the salts and the checksum that runs
// on from the frame before it (a byte changed in one breaks it: an edit);
// atIndex whether the chain ends at the checksum the wal-index holds for
// the last of them (a log whose own chain holds but ends elsewhere is
// another log, written for the same salts: a copy of this one written on
// at the copy); sure is false when the log's header is not the one idx was
// written for, or it cannot be read.
func walFramesChain(side string, idx walIndex) (chained, atIndex, sure bool) {
	if idx.mxFrame == 0 {
		return true, true, true
	}
	f, err := os.Open(side + "-wal") // SQLite holds no lock on the log itself
	if err != nil {
		return true, true, false
	}
	defer f.Close()
	hdr := make([]byte, walHeaderSize)
	if _, err := io.ReadFull(f, hdr); err != nil {
		return true, true, false
	}
	var bo bool // the checksums' words big-endian
	switch binary.BigEndian.Uint32(hdr) {
	case walMagicLE:
	case walMagicBE:
		bo = true
	default:
		return false, false, true
	}
	be := binary.BigEndian // the log's fields are big-endian; its checksums' words as bo says
	if !idx.wroteFor(hdr) {
		return true, true, false
	}
	s0, s1 := walChecksum(0, 0, hdr[:24], bo)
	if s0 != be.Uint32(hdr[24:]) || s1 != be.Uint32(hdr[28:]) {
		return false, false, true
	}
	frame := make([]byte, walFrameHeaderSize+idx.pageSize)
	r := bufio.NewReaderSize(f, 1<<16)
	for i := uint32(0); i < idx.mxFrame; i++ {
		if _, err := io.ReadFull(r, frame); err != nil {
			return false, false, true // the log ends before the frames committed
		}
		if be.Uint32(frame[8:]) != idx.salt[0] || be.Uint32(frame[12:]) != idx.salt[1] {
			return false, false, true
		}
		s0, s1 = walChecksum(s0, s1, frame[:8], bo)
		s0, s1 = walChecksum(s0, s1, frame[walFrameHeaderSize:], bo)
		if s0 != be.Uint32(frame[16:]) || s1 != be.Uint32(frame[20:]) {
			return false, false, true
		}
	}
	return true, s0 == idx.frameCksum[0] && s1 == idx.frameCksum[1], true
}
