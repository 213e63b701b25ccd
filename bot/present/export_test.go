package present

// ControlRows gives the external tests the control rows of the internal ones.
var ControlRows = controlRows
