import os
import sys

# c_api.py sits beside the tests.
sys.path.insert(0, os.path.dirname(__file__))
