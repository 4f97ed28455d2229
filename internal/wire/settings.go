package wire

// User-settings JSON field names, as the spec's settings table defines them.
const (
	SettingAutoStartLanguages   = "lsp_auto_start_languages"
	SettingAutoInstallLanguages = "lsp_auto_install_languages"
	SettingServerConfigs        = "lsp_server_configs"
	SettingStatusLocation       = "lsp_status_location"
)

// Status locations; anything else normalizes to StatusLocationToolbar.
const (
	StatusLocationToolbar   = "toolbar"
	StatusLocationStatusBar = "status_bar"
)
