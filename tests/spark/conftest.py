"""A small real local Spark session shared by the Spark tests (module-scoped per module)."""

import os
import shutil
import sys

import pytest


def require_spark():
    """pyspark and a Java runtime, or skip the module with the install line.

    The CI job that installs ``prcurve[spark]`` sets ``PRCURVE_REQUIRE_SPARK=1``: there a
    missing pyspark or Java fails the run instead (the other jobs install no Spark and skip).
    """
    missing = None
    try:
        import pyspark  # noqa: F401
    except ImportError:
        missing = "pyspark is not installed (pip install -e '.[spark,test]')"
    if missing is None and shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        missing = "no Java runtime (apt-get install openjdk-17-jre-headless)"
    if missing is None:
        return
    if os.environ.get("PRCURVE_REQUIRE_SPARK"):
        pytest.fail(f"the Spark job must run Spark: {missing}", pytrace=False)
    pytest.skip(missing, allow_module_level=True)


def local_session(master: str, name: str, **conf: str):
    """A small local Spark session (no UI, quiet), or skip/fail as :func:`require_spark` says."""
    require_spark()
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable  # executors import this prcurve
    builder = SparkSession.builder.master(master).appName(name)
    conf = {"spark.ui.enabled": "false", "spark.ui.showConsoleProgress": "false", **conf}
    for key, value in conf.items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    return session


@pytest.fixture(scope="module")
def spark():
    session = local_session(
        "local[2]", "prcurve-tests", **{
            "spark.driver.memory": "2g", "spark.sql.shuffle.partitions": "4",
            "spark.sql.adaptive.coalescePartitions.enabled": "false",
        },
    )  # fmt: skip
    yield session
    session.stop()
