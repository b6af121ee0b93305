// Package stations is what both faces need of a station's record
// (docs/stations.md): its description beside the record, the status file
// the running station writes, and the invitation the first station makes.
// The command line (cli/station.go) and the console's Match → Stations…
// (gui/stations.go) call the same functions. It is apart from package
// service because package station imports service; built with -tags
// nostation it holds stubs (no record is a station's).
package stations
