# The Kandev LSP agent added to an existing task image. The image stays
# what it was — its toolchains, its PATH, its user — and becomes the
# agent's task environment: language servers are found there, or installed
# into $HOME/.kandev/lsp-servers on demand. docs/integrating.md ("The agent
# on a task host") lists every variable the agent reads.
#
# Build the agent static (no C library needed in the image), into a small
# build context, then build FROM the task image:
#
#   mkdir -p ctx && CGO_ENABLED=0 GOOS=linux go build -trimpath -o ctx/kandev-agent ./agent/cmd/kandev-agent
#   docker build -f docker/agent.Dockerfile --build-arg TASK_IMAGE=my-task:latest -t my-task-lsp ctx
#
# Run it with the token from the environment (a flag would show in ps),
# the agent's port published on loopback, the task's files at /workspace:
#
#   export KANDEV_AGENT_TOKEN=$(openssl rand -hex 32)
#   docker run -d --name task-1 -e KANDEV_AGENT_TOKEN -p 127.0.0.1:7071:7070 -v "$PWD:/workspace" my-task-lsp
ARG TASK_IMAGE
FROM ${TASK_IMAGE}
COPY kandev-agent /usr/local/bin/kandev-agent
# The agent's settings (limits, log format) may be set here or at run time;
# the token only ever at run time.
ENV KANDEV_AGENT_LOG_FORMAT=json
EXPOSE 7070
ENTRYPOINT ["/usr/local/bin/kandev-agent", "-addr", "0.0.0.0:7070", "-workspace", "/workspace"]
