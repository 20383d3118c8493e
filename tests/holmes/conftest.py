import os
import sys

# The Holmes tests share `holmes_support`; importlib mode does not put test dirs on sys.path.
sys.path.insert(0, os.path.dirname(__file__))
