"""shenshi.adapters"""
