import sys
from pathlib import Path

# Tests import with --import-mode=importlib, which leaves sys.path alone: make this folder's
# helper module importable under its own, project-unique name.
sys.path.insert(0, str(Path(__file__).parent))
