package i18n

// The texts of the surfaces around the status view: the status control's
// label, the popover and drawer, the Editors settings page with its
// language cards and installer details, and the page chrome of the editor
// host (file viewers, tree toggle, locale switch). The page reads them with
// kandevLSP.text(key, args), so a locale switch changes every text the user
// sees, and the pseudo locale shows which ones are not from a catalog.
//
// They live in their own tables, merged into the catalogs at start-up, so
// the status texts and these grow independently.
//
// Placeholders besides the status ones: {path} a task file path, {dir} a
// task-host directory, {name} a tool name, {os} a task host's GOOS/GOARCH,
// {error} a parser's or the server's message, {field} a settings field
// name, {session} a session id, {size} a byte count.

var englishPage = map[string]string{
	"control.label": "{language} · {summary}",
	"panel.title":   "{language} language server",
	"panel.close":   "Close",

	"language.go":         "Go",
	"language.typescript": "TypeScript/JavaScript",
	"language.python":     "Python",
	"language.rust":       "Rust",
	"language.kotlin":     "Kotlin",

	"page.action.start":   "Start",
	"page.action.stop":    "Stop",
	"page.action.retry":   "Retry",
	"page.files":          "Files",
	"page.outline":        "Outline",
	"page.showFiles":      "Files",
	"page.session":        "Session",
	"page.sessionPlain":   "{session} (no LSP)",
	"page.sessionDocker":  "{session} (Local Docker)",
	"page.sessionNote":    "Monaco only, no language server",
	"page.locale":         "Language",
	"page.noFile":         "No file open",
	"page.closeFile":      "Close file",
	"page.settings":       "Settings",
	"page.saving":         "Saving…",
	"page.saveFailed":     "Save failed",
	"page.dirty":          "Unsaved changes",
	"page.saved":          "Saved",
	"page.loading":        "Loading {path}…",
	"page.loadFailed":     "{path} could not be loaded.",
	"page.binary":         "{path} is a binary file ({size} bytes) and is not shown in the editor.",
	"page.readOnly":       "Read-only on this screen size; language servers stay off.",
	"page.statusBar":      "Status bar",
	"page.statusBar.move": "Drag to reorder, or focus and press Alt+← or Alt+→.",
	"page.cursor":         "Ln {line}, Col {column}",

	"settings.title":              "Editors",
	"settings.intro":              "Language servers for Monaco file editors. Each change is saved at once.",
	"settings.close":              "Back to files",
	"settings.saved":              "Saved.",
	"settings.saveFailed":         "Not saved: {error}",
	"settings.location":           "LSP status location",
	"settings.location.toolbar":   "Editor toolbar",
	"settings.location.status":    "Status bar",
	"settings.location.rule":      "The status bar is used when Show status bar is on and the pointer is a mouse or trackpad; otherwise the control stays in the editor toolbar. Your choice is kept either way.",
	"settings.location.now":       "On this screen the control is in the editor toolbar.",
	"settings.location.nowBar":    "On this screen the control is in the status bar.",
	"settings.location.coarse":    "This screen uses touch, so the control stays in the editor toolbar.",
	"settings.location.hidden":    "The status bar is hidden, so the control stays in the editor toolbar.",
	"settings.location.phone":     "On a phone, files open without language servers and without the control.",
	"settings.showStatusBar":      "Show status bar",
	"settings.showStatusBar.note": "Stored in this browser.",
	"settings.languages":          "Language servers",
	"settings.host":               "Task host of session {session}: {os}",
	"settings.host.loading":       "Asking the task host of session {session} how it installs servers…",
	"settings.host.none":          "Session {session} has no language servers; installer details come from a session with a task host.",
	"settings.experimental":       "Experimental",
	"settings.autoStart":          "Start automatically when a {language} file opens",
	"settings.autoInstall":        "Install the server on the task host when it is missing",
	"settings.autoInstall.none":   "Never installed automatically.",
	"settings.found":              "{server} is available on this task host: {path}",
	"settings.missing":            "{server} is not on this task host.",
	"settings.command":            "Installation command",
	"settings.workdir":            "Runs in {dir}",
	"settings.download":           "Download",
	"settings.prerequisites":      "Prerequisites",
	"settings.prereq.none":        "None",
	"settings.prereq.found":       "{name}: found",
	"settings.prereq.missing":     "{name}: missing on this task host",
	"settings.destination":        "Destination",
	"settings.manual":             "Kandev never installs {server}. Install it on the task host and make it available on the task host's PATH; auto-start then uses it.",
	"settings.unsupportedOS":      "This task host ({os}) has no installer for {server}. Install {server} manually on the task host's PATH; a manually installed server still runs.",
	"settings.config":             "Configuration (JSON object, answered to workspace/configuration)",
	"settings.config.save":        "Save configuration",
	"settings.config.invalid":     "{language} configuration ({field}) is not valid JSON: {error}",
	"settings.config.notObject":   "{language} configuration ({field}) must be a JSON object.",
}

var germanPage = map[string]string{
	"control.label": "{language} · {summary}",
	"panel.title":   "{language}-Sprachserver",
	"panel.close":   "Schließen",

	"language.go":         "Go",
	"language.typescript": "TypeScript/JavaScript",
	"language.python":     "Python",
	"language.rust":       "Rust",
	"language.kotlin":     "Kotlin",

	"page.action.start":   "Starten",
	"page.action.stop":    "Beenden",
	"page.action.retry":   "Erneut versuchen",
	"page.files":          "Dateien",
	"page.outline":        "Gliederung",
	"page.showFiles":      "Dateien",
	"page.session":        "Sitzung",
	"page.sessionPlain":   "{session} (ohne LSP)",
	"page.sessionDocker":  "{session} (lokales Docker)",
	"page.sessionNote":    "Nur Monaco, kein Sprachserver",
	"page.locale":         "Sprache",
	"page.noFile":         "Keine Datei geöffnet",
	"page.closeFile":      "Datei schließen",
	"page.settings":       "Einstellungen",
	"page.saving":         "Wird gespeichert …",
	"page.saveFailed":     "Speichern fehlgeschlagen",
	"page.dirty":          "Ungespeicherte Änderungen",
	"page.saved":          "Gespeichert",
	"page.loading":        "{path} wird geladen …",
	"page.loadFailed":     "{path} konnte nicht geladen werden.",
	"page.binary":         "{path} ist eine Binärdatei ({size} Byte) und wird im Editor nicht angezeigt.",
	"page.readOnly":       "Auf dieser Bildschirmgröße schreibgeschützt; Sprachserver bleiben aus.",
	"page.statusBar":      "Statusleiste",
	"page.statusBar.move": "Zum Umordnen ziehen, oder fokussieren und Alt+← bzw. Alt+→ drücken.",
	"page.cursor":         "Z. {line}, Sp. {column}",

	"settings.title":              "Editoren",
	"settings.intro":              "Sprachserver für Monaco-Dateieditoren. Jede Änderung wird sofort gespeichert.",
	"settings.close":              "Zurück zu den Dateien",
	"settings.saved":              "Gespeichert.",
	"settings.saveFailed":         "Nicht gespeichert: {error}",
	"settings.location":           "Ort des LSP-Status",
	"settings.location.toolbar":   "Editor-Werkzeugleiste",
	"settings.location.status":    "Statusleiste",
	"settings.location.rule":      "Die Statusleiste wird verwendet, wenn „Statusleiste anzeigen“ aktiv ist und eine Maus oder ein Trackpad zeigt; sonst bleibt die Anzeige in der Editor-Werkzeugleiste. Ihre Wahl bleibt in jedem Fall erhalten.",
	"settings.location.now":       "Auf diesem Bildschirm steht die Anzeige in der Editor-Werkzeugleiste.",
	"settings.location.nowBar":    "Auf diesem Bildschirm steht die Anzeige in der Statusleiste.",
	"settings.location.coarse":    "Dieser Bildschirm wird per Touch bedient, daher bleibt die Anzeige in der Editor-Werkzeugleiste.",
	"settings.location.hidden":    "Die Statusleiste ist ausgeblendet, daher bleibt die Anzeige in der Editor-Werkzeugleiste.",
	"settings.location.phone":     "Auf einem Smartphone öffnen sich Dateien ohne Sprachserver und ohne Anzeige.",
	"settings.showStatusBar":      "Statusleiste anzeigen",
	"settings.showStatusBar.note": "Wird in diesem Browser gespeichert.",
	"settings.languages":          "Sprachserver",
	"settings.host":               "Task-Host der Sitzung {session}: {os}",
	"settings.host.loading":       "Der Task-Host der Sitzung {session} wird nach seinen Installationswegen gefragt …",
	"settings.host.none":          "Die Sitzung {session} hat keine Sprachserver; Installationsdetails kommen von einer Sitzung mit Task-Host.",
	"settings.experimental":       "Experimentell",
	"settings.autoStart":          "Automatisch starten, wenn eine {language}-Datei geöffnet wird",
	"settings.autoInstall":        "Den Server auf dem Task-Host installieren, wenn er fehlt",
	"settings.autoInstall.none":   "Wird nie automatisch installiert.",
	"settings.found":              "{server} ist auf diesem Task-Host verfügbar: {path}",
	"settings.missing":            "{server} ist auf diesem Task-Host nicht vorhanden.",
	"settings.command":            "Installationsbefehl",
	"settings.workdir":            "Läuft in {dir}",
	"settings.download":           "Download",
	"settings.prerequisites":      "Voraussetzungen",
	"settings.prereq.none":        "Keine",
	"settings.prereq.found":       "{name}: vorhanden",
	"settings.prereq.missing":     "{name}: fehlt auf diesem Task-Host",
	"settings.destination":        "Zielort",
	"settings.manual":             "Kandev installiert {server} nie. Installieren Sie es auf dem Task-Host und machen Sie es im PATH des Task-Hosts verfügbar; der automatische Start verwendet es dann.",
	"settings.unsupportedOS":      "Dieser Task-Host ({os}) hat kein Installationsprogramm für {server}. Installieren Sie {server} manuell im PATH des Task-Hosts; ein manuell installierter Server läuft trotzdem.",
	"settings.config":             "Konfiguration (JSON-Objekt, Antwort auf workspace/configuration)",
	"settings.config.save":        "Konfiguration speichern",
	"settings.config.invalid":     "Die {language}-Konfiguration ({field}) ist kein gültiges JSON: {error}",
	"settings.config.notObject":   "Die {language}-Konfiguration ({field}) muss ein JSON-Objekt sein.",
}

func init() {
	for k, v := range englishPage {
		english.msgs[k] = v
	}
	for k, v := range germanPage {
		german.msgs[k] = v
	}
}
