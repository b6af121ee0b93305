package match

import (
	"testing"
	"time"

	"arbiter/clock"
)

// TestARunChecksItsFieldsWhereItAlwaysHas: a command faulty in more than
// one way is refused for the same fault whichever way its fields are
// checked (Validate's own checks, called by the run, not copies of them):
// the role first, then what each command checked first. The codes are a
// contract (docs/errors.md).
func TestARunChecksItsFieldsWhereItAlwaysHas(t *testing.T) {
	tooMuch := Adjustment{D: 25 * time.Hour}
	for _, tc := range []struct {
		name string
		live bool
		role Role
		cmd  Command
		want Code
	}{
		{"a flag of no side with no game in progress is refused for the game", false, RoleArbiter, Flag{Side: "sideways"}, CodeNoGame},
		{"both flags without the order unknown with no game in progress is refused for the game", false, RoleArbiter, Flag{Side: "both"}, CodeNoGame},
		{"a flag of no side is refused as no flag", true, RoleWhite, Flag{Side: "sideways"}, CodeNotAFlag},
		{"both flags without the order unknown are refused for the order", true, RoleArbiter, Flag{Side: "both"}, CodeFlagBothNeedsOrder},
		{"the order unknown with one flag is refused as going with both", true, RoleArbiter, Flag{Side: "white", OrderUnknown: true}, CodeOrderUnknownGoesWithBoth},
		{"a claim of no kind by a role of none is refused for the role", true, Role("referee"), Claim{Draw: "stalemate"}, CodeWrongRole},
		{"a claim with a move of no text is refused for the text before the game", false, RoleArbiter, Claim{Draw: "stalemate", Move: "e4\x00"}, CodeTextNUL},
		{"a claim of no kind with no game in progress is refused for the game", false, RoleArbiter, Claim{Draw: "stalemate"}, CodeNoGame},
		{"a claim of no kind by the side not to move is refused for the side", true, RoleBlack, Claim{Draw: "stalemate"}, CodeClaimNotYourMove},
		{"a claim of no kind is refused as no claim", true, RoleWhite, Claim{Draw: "stalemate"}, CodeNotAClaim},
		{"an adjustment without a reason by a player is refused for the role", true, RoleWhite, Adjust{Side: clock.White, Adjustment: tooMuch}, CodeWrongRole},
		{"an adjustment without a reason with no game in progress is refused for the reason", false, RoleArbiter, Adjust{Side: clock.White, Adjustment: tooMuch}, CodeAdjustNeedsReason},
		{"an adjustment no clock takes with no game in progress is refused for the game", false, RoleArbiter, Adjust{Side: clock.White, Adjustment: tooMuch, Reason: "x"}, CodeNoGame},
		{"an adjustment no clock takes is refused for the adjustment", true, RoleArbiter, Adjust{Side: clock.White, Adjustment: tooMuch, Reason: "x"}, CodeCorrectionTooLarge},
		{"an incident of no kind by a player is refused for the kind", true, RoleWhite, LogIncident{Incident: "coffee"}, CodeNotAnIncidentKind},
		{"an incident of the arbiter's without a text by a player is refused for the role", true, RoleWhite, LogIncident{Incident: IncidentRuling}, CodeWrongRole},
		{"an incident of a game's without a text and no game in progress is refused for the text", false, RoleOperator, LogIncident{Incident: IncidentMaintenance}, CodeIncidentNeedsText},
		{"an incident of a game's with no game in progress is refused for the game", false, RoleOperator, LogIncident{Incident: IncidentMaintenance, IncidentArgs: IncidentArgs{Text: "x"}}, CodeIncidentNeedsGame},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			if tc.live {
				r.start()
			}
			_, err := r.app.Do(r.ctx, r.as(tc.role, time.Second), tc.cmd)
			if got := ErrorCode(err); got != tc.want {
				t.Fatalf("%s %+v as %s: refused as %s (%v), want %s", tc.cmd.Kind(), tc.cmd, tc.role, got, err, tc.want)
			}
		})
	}
}
