// Package docsync keeps a language server's copy of a Monaco document in
// step with the editor (didOpen; didChange, incremental or the whole text
// debounced; didClose) and
// decides what a successful file save sends (the final didChange, then
// didSave with or without text).
//
// Incremental changes go out promptly but coalesced: the first change of
// a turn of the event loop is sent inside the call that reports it, the
// turn's later changes together when it ends (Clock.Soon), so one
// keystroke reaches the server before the request Monaco makes for it and
// a paste or format of many changes costs at most two didChanges.
//
// It is pure Go: the binding hands it Monaco's content-change events as
// one JSON string each, a TextSource that reads model.getValue() when a
// full text is needed, and a Sender that writes notifications on the
// document's connection. Everything a document sends goes out under its
// lock, in order, so didChange always precedes the didSave that follows it.
package docsync
