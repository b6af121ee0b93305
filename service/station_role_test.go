//go:build !nostation

package service

import (
	"errors"
	"strings"
	"testing"

	"arbiter/match"
)

// TestTheOperatorsStationSaysWhereAnotherRolesCommandIsGiven: a command
// given at the operator's laptop in another role than the operator's is
// refused saying where it is given (a record holder), not "use --as
// operator", which was wrong for Black's move: no role at the laptop can
// give it.
func TestTheOperatorsStationSaysWhereAnotherRolesCommandIsGiven(t *testing.T) {
	laptop := &StationFile{Role: "operator"}
	for _, tc := range []struct {
		name string
		role match.Role
		want string // "" taken
	}{
		{"the operator's command is taken", match.RoleOperator, ""},
		{"Black's move is sent to a record holder", match.RoleBlack,
			"the operator's station gives only the operator's commands, not Black's: give Black's commands at a record holder (the arbiter's station)"},
		{"White's move is sent to a record holder", match.RoleWhite, "not White's: give White's commands at a record holder"},
		{"the arbiter's command is sent to a record holder", match.RoleArbiter, "not the arbiter's: give the arbiter's commands at a record holder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &StationCommand{Cmd: match.Move{Input: "e5"}, G: Global{Role: tc.role}, RoleGiven: true}
			err := checkRoleOf(laptop, c)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var re *RoleError
			if !errors.As(err, &re) {
				t.Fatalf("err = %v, want a *RoleError (the console says it in its own words by its type)", err)
			}
			if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "use --as operator") {
				t.Errorf("the refusal says %q; want it to say %q", err, tc.want)
			}
		})
	}
}
