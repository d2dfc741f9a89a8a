# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Cost explorer
#
# This notebook runs on a real Jupyter kernel every time the site is built.
# Its plots and tables are being written.

# %%
import sys

print(f"Executed by Python {sys.version_info.major}.{sys.version_info.minor}")
