// Package docsync keeps a language server's copy of a Monaco document in
// step with the editor (didOpen; didChange, incremental at the end of each
// turn of the event loop or the whole text debounced; didClose) and
// decides what a successful file save sends (the final didChange, then
// didSave with or without text).
//
// It is pure Go: the binding hands it Monaco's content-change events as
// one JSON string each, a TextSource that reads model.getValue() when a
// full text is needed, and a Sender that writes notifications on the
// document's connection. Everything a document sends goes out under its
// lock, in order, so didChange always precedes the didSave that follows it.
package docsync
