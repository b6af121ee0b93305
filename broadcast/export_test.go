package broadcast

// RaiseFileLimit lets the tests raise this process's limit of open files
// as the server does.
var RaiseFileLimit = raiseFileLimit
