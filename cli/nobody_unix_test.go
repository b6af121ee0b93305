//go:build unix

package cli

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// asNobody makes cmd run as the user nobody when the test runs as root (for
// whom permissions do not hold).
func asNobody(t *testing.T, cmd *exec.Cmd) {
	if os.Geteuid() != 0 {
		return
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	cmd.Env = append(cmd.Env, "HOME=/nonexistent", "GOCOVERDIR=")
}
