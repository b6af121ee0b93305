package service

import (
	"crypto/ed25519"
	"io"
	"io/fs"
	"os"
	"runtime"

	"arbiter/internal/phrase"
	"arbiter/match"
)

// ReadKeyFile reads a credential's key file (--key-file FILE, or the
// operator's key an invitation brought to a station): it must be a regular
// file readable only by its owner, and hold a key written by 'credential
// keygen'.
func ReadKeyFile(path string) (ed25519.PrivateKey, error) {
	b, fi, err := readRegular(path, "the key file", 64<<10)
	if err != nil {
		return nil, err
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return nil, refuse(CodeKeyFileReadable, path, path)
	}
	k, err := match.ParseKeyFile(b)
	if err != nil {
		return nil, err
	}
	return k, nil
}

// ReadRegularFile reads a file the user names that must be a regular file
// (what says which: "the invitation"), at most limit bytes. A FIFO, a
// device, a socket or a folder is refused in one sentence, at once: the
// file is opened without blocking (a FIFO with no writer would otherwise
// hold the command for ever) and the opened file's own mode decides.
func ReadRegularFile(path, what string, limit int64) ([]byte, error) {
	b, _, err := readRegular(path, what, limit)
	return b, err
}

func readRegular(path, name string, limit int64) ([]byte, fs.FileInfo, error) {
	what := phrase.Word(name) // "the key file": a word a dictionary translates
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblocking, 0)
	if err != nil {
		return nil, nil, refuse(CodeCannotRead, what, path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, refuse(CodeCannotRead, what, path, err)
	}
	if kind := notRegular(fi.Mode()); kind != "" {
		return nil, nil, refuse(CodeNotRegular, what, path, phrase.Word(kind))
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, nil, refuse(CodeCannotRead, what, path, err)
	}
	if int64(len(b)) > limit {
		return nil, nil, refuse(CodeTooLarge, what, path, limit)
	}
	return b, fi, nil
}

// notRegular names what a file of mode m is when it is not a regular file
// ("" when it is).
func notRegular(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	}
	return "a special file"
}
