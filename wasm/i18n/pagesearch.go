package i18n

// The texts of the page's content search, its diff view, and the session
// labels of executors that have no language servers. Kept apart from
// page.go so each table grows on its own; merged into the catalogs below.
// {query} is what the user searched for, {n} a count, {path} a task file
// path, {session} a session id.

var englishPageSearch = []kv{
	{"search.button", "Search"},
	{"search.title", "Search in files"},
	{"search.placeholder", "Text to find in this session's files"},
	{"search.hint", "Type and press Enter to search the session's workspace."},
	{"search.searching", "Searching…"},
	{"search.none", "No line contains “{query}”."},
	{"search.count.one", "{n} match"},
	{"search.count.other", "{n} matches"},
	{"search.truncated", "Only the first {n} matches are shown: narrow the search to see the rest."},
	{"search.failed", "The search could not be run."},
	{"search.close", "Close the search"},
	{"search.position", "{path}:{line}"},
	{"diff.button", "Diff"},
	{"diff.buttonTitle", "Compare with the saved file"},
	{"diff.close", "Back to the editor"},
	{"diff.title", "{path}: saved ↔ unsaved"},
	{"page.sessionSSH", "{session} (SSH)"},
	{"page.sessionRepos", "{session} (two repositories)"},
	{"page.repository", "repository"},
	{"page.repositoryName", "Repository {name}"},
}

var germanPageSearch = []kv{
	{"search.button", "Suchen"},
	{"search.title", "In Dateien suchen"},
	{"search.placeholder", "Text, der in den Dateien dieser Sitzung gesucht wird"},
	{"search.hint", "Eingeben und die Eingabetaste drücken, um den Arbeitsbereich der Sitzung zu durchsuchen."},
	{"search.searching", "Suche läuft …"},
	{"search.none", "Keine Zeile enthält „{query}“."},
	{"search.count.one", "{n} Treffer"},
	{"search.count.other", "{n} Treffer"},
	{"search.truncated", "Nur die ersten {n} Treffer werden gezeigt: Grenzen Sie die Suche ein, um die übrigen zu sehen."},
	{"search.failed", "Die Suche konnte nicht ausgeführt werden."},
	{"search.close", "Suche schließen"},
	{"search.position", "{path}:{line}"},
	{"diff.button", "Vergleich"},
	{"diff.buttonTitle", "Mit der gespeicherten Datei vergleichen"},
	{"diff.close", "Zurück zum Editor"},
	{"diff.title", "{path}: gespeichert ↔ ungespeichert"},
	{"page.sessionSSH", "{session} (SSH)"},
	{"page.sessionRepos", "{session} (zwei Repositorys)"},
	{"page.repository", "Repository"},
	{"page.repositoryName", "Repository {name}"},
}
