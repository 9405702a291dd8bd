"""A small real local Spark session shared by the Spark tests (module-scoped per module)."""

import os
import shutil
import sys

import pytest

from ..conftest import import_reference


def require_spark():
    """pyspark and a Java runtime: CI (``CI`` set) fails without them, elsewhere the tests skip."""
    pyspark = import_reference("pyspark")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        message = "no Java runtime (apt-get install openjdk-17-jre-headless)"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run Spark: {message}")
        pytest.skip(message)
    return pyspark


@pytest.fixture(scope="module")
def spark():
    require_spark()
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable  # executors import this prcurve
    session = (
        SparkSession.builder.master("local[2]")
        .appName("prcurve-tests")
        .config("spark.driver.memory", "2g")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.adaptive.coalescePartitions.enabled", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
