"""Doctests of ``src/``: the Spark examples get a small local Spark session as ``spark``.

Only the doctests of ``prcurve.spark`` need it.  Where pyspark or Java is missing they are
skipped with the install line, except in the Spark CI job (``PRCURVE_REQUIRE_SPARK=1``),
where that fails (``tests/spark/conftest.py`` has the same rule for the Spark tests).
"""

import pytest


@pytest.fixture(autouse=True)
def _spark_for_spark_doctests(request, doctest_namespace):
    from _pytest.doctest import DoctestItem

    if not isinstance(request.node, DoctestItem) or "prcurve.spark" not in request.node.name:
        return
    from tests.spark.conftest import local_session

    doctest_namespace["spark"] = local_session(
        "local[1]", "prcurve-doctests", **{"spark.sql.shuffle.partitions": "2"}
    )
