"""What the tests of numbapipe's replacements share: numbapipe installed (a native module's first
compile does it; the tests call its parts directly) and the mark `checked`, which runs a test only
under a Numba release the replacements were checked on (numbapipe.TESTED). Import it after
`pytest.importorskip("numba")`."""

import numba
import pytest

from ziggurat.interpreter.native import numbapipe

numbapipe.install()
checked = pytest.mark.skipif(not numbapipe.tested(numba.__version__),
                             reason=f"numbapipe leaves Numba {numba.__version__} as it is (not in numbapipe.TESTED)")
