// Package client is the connection manager of lsp.wasm, free of JavaScript.
//
// One connection serves each (session, language, server) in this window
// and is shared by all of its documents: a language may be served by several
// servers at once (Config.Servers), each in its own slot of the language's
// list, and a document is opened on every one of them. Every open document
// holds a lease on each of its pairs, and a pair without leases closes its
// connection after an idle timeout. Each connection is a generation: a connection replaced by Start or
// Retry, or ended, keeps running its own goroutines until they notice, but
// every one of its callbacks (status frames, the initialize answer, progress,
// its end) is checked against the pair's current generation under one lock,
// so a late callback can never close, initialize or clean up its
// replacement.
//
// A connection dials the relay through an injected Dialer, waits for the
// task host's ready frame, runs the LSP initialize handshake, keeps open
// documents in sync (didOpen, didChange, didClose),
// turns publishDiagnostics into Monaco markers handed to a MarkerSink,
// tracks work-done progress, and answers the server's requests. Whether a
// just-opened document may connect is the Policy's decision.
//
// # Locks
//
// These are all the mutexes of the package, in the one order in which
// they may be taken: a goroutine holding one of them takes only locks
// listed after it, and never one it already holds, so no two goroutines
// can end up waiting for each other.
//
//  1. Client.deliverMu hands queued statuses to Config.OnStatus one delivery
//     at a time, so the listener sees them in the order they were recorded.
//     It is held while OnStatus runs, which may read statuses and edit
//     documents; a listener that reported a status itself would wait for
//     its own delivery. No lock is held where a delivery starts.
//  2. Document.peerMu guards a lead document's peers (the documents of its
//     language's further servers) and whether they were closed. New peers
//     are made under it, which takes Client.mu; their statuses are
//     delivered only once it is released.
//  3. Document.mu guards the rest of a document's changing state: the
//     generation it is open on, its server document, its URI, whether it
//     closed, whether it shows markers and what is on disk. Its
//     notifications are sent while it is held, so didOpen, didChange,
//     didSave and didClose leave in order; that is why it comes before the
//     connection's locks.
//  4. connection.docMu orders the opening and closing of server documents on
//     one connection, so a didClose always leaves before the next didOpen
//     of the same file.
//  5. connection.provMu guards the providers a connection registered with
//     the editor and orders their registration and disposal.
//  6. connection.probMu guards whether a generation's problems were dropped,
//     so a late report cannot outlive its generation in the problems list.
//  7. Client.supMu guards the suppression generation last published, so
//     snapshots reach Editor.Suppress in order and each once.
//  8. Client.mu guards the pairs, the queued statuses, the initialized
//     connections, the sessions' workspaces, the pending
//     showMessageRequests and whether the Client closed. A connection's
//     callbacks are checked against its pair's current generation, and
//     their statuses queued, under this one lock, which fixes one order for
//     every status.
//  9. connection.mu guards the rest of a connection's changing state: its
//     server documents, the JSON-RPC conn, the registry and puller, the
//     server's name, the progress tracker, the heartbeat, and the resumable
//     transport once set. Client.mu is held around it where a status is
//     recorded or a connection ends, and every notification sent takes it
//     (for the pull scheduler).
//  10. resumable.mu guards a resumable transport's socket of the moment,
//     its resume token and the frames kept for a replay.
//  11. resumable.wmu orders writes to that socket. It is held through each
//     write; a resume holds it inside resumable.mu, so that no write slips
//     between the replay and the switch to the new socket.
//  12. answered.mu, LateEditor.mu and typingGate.mu guard their own structs
//     and call out to nothing while held, so they may be taken under any of
//     the others.
//
// docMu, provMu and probMu are never held together; what matters is that
// each comes after Document.mu and before Client.supMu and Client.mu.
//
// The locks of the packages used here fit into this order. A docsync.Doc
// sends its notifications with its own lock held, and sending takes
// connection.mu and the resumable's locks, so a Doc's lock comes after
// connection.docMu and before connection.mu. A docsync.Hub's lock comes
// after docMu too, and before the Docs' locks, which it takes. The
// pull.Puller, problems.Store and suppress.State call nothing of this
// package with their locks held.
//
// Each struct's lock guards that struct's fields, with two exceptions. A
// pair has no lock: all its fields are guarded by Client.mu, because a
// pair's current generation, leases and status must change together with
// the Client's other bookkeeping. A serverDoc is an entry of its
// connection's byPath table and is guarded by connection.mu with it (its
// docsync.Doc has a lock of its own).
//
// Callbacks are made with at most these locks held, and must not take,
// directly or by calling back into the Client or a Document, a lock at or
// before the last of them, nor wait for a goroutine that does:
//
//   - Config.OnStatus: Client.deliverMu.
//   - Policy.ShouldConnect and SlotSinks.ForSlot: Document.peerMu, while a
//     lead document adds its peers.
//   - TextSource.Text: a docsync.Doc's lock, often with Document.mu and
//     connection.docMu too.
//   - MarkerSink.SetMarkers: its Document.mu, and connection.docMu while a
//     model joins a file another model already has open.
//   - Editor.Provider, Editor.Ended and Config.Formatter: connection.provMu.
//   - Editor.Suppress: Client.supMu, after either connection.provMu or the
//     opening document's Document.mu and connection.docMu.
//   - Config.OnProblems: connection.probMu; it may call Problems.
//   - ModelInfo and Config.Servers: Client.mu, after Document.peerMu
//     while a lead document adds its peers.
//   - Config.Logf: any of them.
//
// Clock.AfterFunc and Config.Soon are called with Client.mu,
// connection.mu or a docsync.Doc's lock held, so neither may run its
// function before it returns.
//
// Everything else is called with no lock held: Editor.Refresh and
// Editor.Apply, ContentSetter, DiskModel (whose Replace makes Monaco call
// Document.Changed at once), Config.ReadFile, OnDiskChange,
// OnWorkspaceFiles, OnMessage, ShowDocument, Configs, Features and the
// Dialer.
package client
