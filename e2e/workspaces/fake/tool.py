# No Python server is installed on the bare task host: opening this file
# shows the localized missing-server status.
print("hello")
