package match

// The kinds of incident in a game's log (Incident.Kind) that other packages
// tell apart (the PDF's appendix, its table of clock adjustments, the PGN's
// corrections) or print for (a setup card). The incident command's own
// kinds are the keys of incidentKinds; the rest are recorded by the commands named.
const (
	IncidentResult           = "result"            // a game ended (game.end)
	IncidentAdjust           = "adjust"            // a clock adjusted (6.10)
	IncidentCorrect          = "correct"           // a position corrected (rule 10, 6.13)
	IncidentAmend            = "amend"             // a recorded move amended (rule 15)
	IncidentFlag             = "flag"              // a flag fell
	IncidentRecovery         = "recovery"          // the console was away while a clock ran (rule 7)
	IncidentClaim            = "claim"             // a claim and its ruling; kinds starting with it are claims
	IncidentPostponed        = "postponed"         // a game postponed (rule 3)
	IncidentRuling           = "ruling"            // a ruling of the arbiter (rule 16)
	IncidentAppeal           = "appeal"            // an appeal (rule 19)
	IncidentAppealDecision   = "appeal-decision"   // the appeals board's decision (rule 19)
	IncidentTechnicalFault   = "technical-fault"   // rules 6, 7, 12
	IncidentMaintenance      = "maintenance"       // rule 13
	IncidentOperatorReplaced = "operator-replaced" // rule 4
	IncidentArbiterReplaced  = "arbiter-replaced"  // rule 17
	IncidentSetup            = "setup"             // rule 12: the operator sets up the position in the computer
	// Kinds this version does not record but a report lists as rulings
	// when a record carries them.
	IncidentTakeback = "takeback"
	IncidentPenalty  = "penalty"
	IncidentForfeit  = "forfeit"
)
