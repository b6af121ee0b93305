//go:build !unix

package cli

import (
	"os/exec"
	"testing"
)

func asNobody(*testing.T, *exec.Cmd) {}
