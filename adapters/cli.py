"""The `rulebook` command line: one subcommand per job.

Each job's commands live in their own module under `adapters/commands/` and register themselves
here, so that the modules stay small and imports stay lazy (the CLI starts fast).
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(help="Rulebook Assistant: cited answers from regulated PDF rulebooks.",
                  no_args_is_help=True, add_completion=False)
eval_app = typer.Typer(help="Measure retrieval and answer quality.", no_args_is_help=True)
app.add_typer(eval_app, name="eval")

# module -> its `register(app, eval_app)` adds that job's commands
COMMAND_MODULES = (
    "adapters.commands.index_cmds",      # index, inventory, export-chunks
    "adapters.commands.search_cmds",     # search
    "adapters.commands.eval_retrieval_cmds",  # eval retrieval, eval obliqa
    "adapters.commands.ask_cmds",        # ask, chat, demo
    "adapters.commands.eval_e2e_cmds",   # eval e2e
    "adapters.commands.eval_answering_cmds",  # eval answering, eval exclusion, eval calibrate
    "adapters.commands.eval_spans_cmds",  # eval spans (the span weights fit)
    "adapters.commands.eval_outline_cmds",  # eval outline (sections against the PDFs' bookmarks)
    "adapters.commands.serve_cmds",      # serve, teams-package
    "adapters.commands.report_cmds",     # report
    "adapters.commands.changes_cmds",    # changes (the audit log)
)

for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app, eval_app)


def main() -> None:
    from adapters.commands.cli_faults import run_cli

    run_cli(app)  # a fault a user can fix is one clear line, never a traceback


if __name__ == "__main__":
    main()
