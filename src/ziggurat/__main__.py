"""`python -m ziggurat ...`: the same command line as `ziggurat ...`."""

from .cli.main import main

if __name__ == "__main__":
    main()
